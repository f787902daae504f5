"""The kernel's machine compiled at install (setup.py's build_kernel, kernel/prebuild.py): a
first search in an empty cache loads it instead of compiling it for half a minute.

An install that did not compile it (numba missing from the build, an install made before
setup.py had the step) skips the first test, except in CI, which sets
PUZINT_REQUIRE_PREBUILT: there `pip install -e .` must have compiled it."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from puzint.kernel import installed

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

ROOT = Path(__file__).resolve().parents[2]
CACHE_HITS = "import puzint.kernel.entry as entry; print(entry._entry.cache_hits)"


def in_a_fresh_process(code: str, cache: Path, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PUZINT_CACHE_DIR": str(cache), **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_machine_compiled_at_install_is_loaded_in_an_empty_cache(tmp_path: Path) -> None:
    from puzint.kernel.where import cache_name, installed_base

    if installed_base() is None:
        if os.environ.get("PUZINT_REQUIRE_PREBUILT"):
            pytest.fail(f"the install did not compile the kernel's machine (no {cache_name()} beside the kernel)")
        pytest.skip("this install did not compile the kernel's machine (pip install -e . does)")
    assert in_a_fresh_process(CACHE_HITS, tmp_path) == "1"  # loaded: no compile
    assert list((tmp_path / cache_name()).glob("entry.*.nbc"))


@pytest.mark.slow
def test_the_build_step_compiles_the_machine_for_every_user_to_read(tmp_path: Path) -> None:
    """What setup.py runs (in the build's Python), into a directory of its own: the machine's
    files, readable by all and writable by the installer alone; an older kernel's removed."""
    from puzint.kernel.where import cache_name

    target = tmp_path / "compiled"
    (target / "kernel-0123456789abcdef").mkdir(parents=True)
    code = "import sys; from puzint.kernel.prebuild import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    built = target / cache_name()
    assert done.stdout == f"the kernel's machine compiled into {built}\n"
    assert [p.name for p in target.iterdir()] == [cache_name()]
    assert list(built.glob("entry.*.nbi")) and list(built.glob("entry.*.nbc"))
    if hasattr(os, "getuid"):
        assert {stat.S_IMODE(p.stat().st_mode) for p in built.iterdir()} == {0o644}
        assert stat.S_IMODE(built.stat().st_mode) == 0o755
    cache = tmp_path / "cache"
    (cache / cache_name()).mkdir(parents=True, mode=0o700)
    cache.chmod(0o700)
    seeded = "from puzint.kernel import where; where.installed_base = lambda: __import__('pathlib').Path(r'%s')\n"
    assert in_a_fresh_process(seeded % target + CACHE_HITS, cache) == "1"
