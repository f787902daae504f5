"""The kernel compiled at install (setup.py's build_kernel, interpreter/prebuild.py): a first
search in an empty cache loads the machine and its own loop instead of compiling them.

An install that did not compile it (numba missing from the build, PUZINT_BUILD_KERNEL=0, an
install made before setup.py had the step) skips the first tests, except in CI, which sets
PUZINT_REQUIRE_PREBUILT: there `pip install -e .` must have compiled it."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from puzint.kernel import installed

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

ROOT = Path(__file__).resolve().parents[1]
CACHE_HITS = "import puzint.kernel.machine.entry as entry; print(entry._entry.cache_hits)"


def in_a_fresh_process(argv: list[str], cache: Path) -> str:
    done = subprocess.run(
        [sys.executable, *argv],
        env={**os.environ, "PUZINT_CACHE_DIR": str(cache)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def install() -> Path:
    """The kernel's code compiled at install."""
    from puzint.kernel.where import cache_name, installed_base

    base = installed_base()
    if base is None:
        if os.environ.get("PUZINT_REQUIRE_PREBUILT"):
            pytest.fail(f"the install did not compile the kernel (no compiled/{cache_name()} beside it)")
        pytest.skip("this install did not compile the kernel (pip install -e . does)")
    return base / cache_name()


def test_the_machine_compiled_at_install_is_loaded_in_an_empty_cache(install: Path, tmp_path: Path) -> None:
    assert in_a_fresh_process(["-c", CACHE_HITS], tmp_path) == "1"  # loaded: no compile
    assert list((tmp_path / install.name).glob("entry.*.nbc"))


@pytest.mark.parametrize(
    ("spec", "question", "answer"),
    [
        # a spec of the warm-up (peg_english), and specs it does not run, asking the same searches
        ("peg_english", [], {"length": 31}),
        ("peg_triangle", [], {"length": 13}),
        ("number_circle", ["-p", "n=10", "--count"], {"count": 288}),
    ],
)
def test_a_search_of_a_kind_compiled_at_install_compiles_nothing(
    install: Path, tmp_path: Path, spec: str, question: list[str], answer: dict[str, object]
) -> None:
    """The loops are compiled for their arguments' types, the same for every spec: nothing is
    added to the cache but the install's own files."""
    argv = ["-m", "puzint", "run", str(ROOT / "specs" / f"{spec}.puz"), *question, "--engine", "compiled"]
    data = json.loads(in_a_fresh_process([*argv, "--format", "json"], tmp_path))
    assert {key: data[key] for key in answer} == answer
    compiled_now = {p.name for p in (tmp_path / install.name).iterdir()} - {p.name for p in install.iterdir()}
    assert compiled_now == set()


@pytest.mark.slow
def test_the_build_step_compiles_the_kernel_for_every_user_to_read(tmp_path: Path) -> None:
    """What setup.py runs (in the build's Python), into a directory of its own: the machine's
    and the searches' files, readable by all and writable by the installer alone; an older
    kernel's removed."""
    from puzint.kernel.where import cache_name

    target = tmp_path / "compiled"
    (target / "kernel-0123456789abcdef").mkdir(parents=True)
    done = subprocess.run(
        [sys.executable, "-m", "puzint.prebuild", str(target), str(ROOT / "specs")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # every search of the warm-up compiled
    built = target / cache_name()
    assert done.stdout == f"the kernel compiled into {built}\n"
    assert [p.name for p in target.iterdir()] == [cache_name()]
    for module in (
        "entry",
        "core",
        "astar",
        "idastar",
        "bidirectional",
        "best_first",
        "any_solution",
        "depth",
        "fill",
        "cover",
    ):
        assert list(built.glob(f"{module}.*.nbi")), module
    if hasattr(os, "getuid"):
        assert {stat.S_IMODE(p.stat().st_mode) for p in built.iterdir()} == {0o644}
        assert stat.S_IMODE(built.stat().st_mode) == 0o755


@pytest.mark.slow
def test_the_wheel_holds_the_kernel_compiled(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        env={key: value for key, value in os.environ.items() if key != "PUZINT_BUILD_KERNEL"},
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = (tmp_path / "dist").glob("puzint-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("puzint/kernel/compiled/kernel-") and "/entry." in n for n in names)
