"""Golden tests: every malformed spec in bad_specs/ gives exactly the diagnostics in its .err
file (file:line:col, the source line, a caret, what was expected)."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.compiler import compile_puzzle
from puzint.errors import SpecError
from puzint.language.elaborate import elaborate
from puzint.language.parser import parse

BAD = Path(__file__).parent / "bad_specs"
CASES = sorted(BAD.glob("*.puz"))


def diagnose(path: Path) -> str:
    source = path.read_text(encoding="utf-8")
    try:
        compile_puzzle(elaborate(parse(source, path.name)))
    except SpecError as exc:
        return exc.with_source(source, path.name).render() + "\n"
    raise AssertionError(f"{path.name} was accepted")


def test_there_are_enough_malformed_specs() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_golden_error(path: Path) -> None:
    expected = path.with_suffix(".err").read_text(encoding="utf-8")
    assert diagnose(path) == expected


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_every_error_has_a_position_and_caret(path: Path) -> None:
    first = diagnose(path).splitlines()
    assert first[0].startswith(f"{path.name}:")
    line, column = first[0].split(":")[1:3]
    assert int(line) >= 1 and int(column) >= 1
    assert "^" in first[2]
