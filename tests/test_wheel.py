"""The grammar and its prebuilt tables must ship inside the wheel: build one, install it apart from the checkout,
and parse a spec with it."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHECK = """
import sys
sys.path.insert(0, sys.argv[1])
import puzint
from puzint.language.parser import parse
from puzint.runner import search
from puzint.compiler import compile_puzzle
from puzint.language.elaborate import elaborate
assert puzint.__file__.startswith(sys.argv[1]), puzint.__file__
from importlib import resources
from puzint.language.indenter import PuzIndenter
from puzint.language.tables import GRAMMAR_PACKAGE, TABLES_FILE, from_tables, grammar_text
raw = resources.files(GRAMMAR_PACKAGE).joinpath(TABLES_FILE).read_text()
assert from_tables(raw, grammar_text(), PuzIndenter()) is not None, "the shipped tables are not used"
spec = parse(open(sys.argv[2]).read(), "frog.puz")
print(search(compile_puzzle(elaborate(spec, {}))).length)
"""


def test_grammar_loads_from_an_installed_wheel(tmp_path: Path) -> None:
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        env={**os.environ, "PUZINT_BUILD_KERNEL": "0"},  # its compile: tests/test_prebuild.py
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = (tmp_path / "dist").glob("puzint-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "puzint/grammar/puz.lark" in names
    assert "puzint/grammar/puz.tables.json" in names
    assert "puzint/specs/frog.puz" in names and "puzint/specs/frog.yaml" in names
    assert not any(n.startswith(("interpreter/", "grammar/")) for n in names)
    assert not any(n.startswith("puzint/kernel/compiled/") for n in names)  # PUZINT_BUILD_KERNEL=0
    # pyproject.toml lists the packages by name: a sub-package left out (the kernel's parts)
    # would be installed without its modules
    sources = ROOT / "interpreter"
    left_out = [
        str(path.relative_to(ROOT))
        for path in sorted(sources.rglob("*.py"))
        if f"puzint/{path.relative_to(sources).as_posix()}" not in names
    ]
    assert left_out == []
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr
    run = subprocess.run(
        [sys.executable, "-c", CHECK, str(target), str(ROOT / "specs" / "frog.puz")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "15"
