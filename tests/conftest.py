"""Shared helpers: build puzzles from spec text, and find the repository's files."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.compiler import CompiledPuzzle, compile_puzzle
from puzint.language.elaborate import elaborate
from puzint.language.parser import parse
from puzint.model import Puzzle

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"

# moves whose costs each fit a 64-bit word, and whose sum (12 of them) does not
DEAR_MOVES = """
puzzle "dear moves"
counter C = 0 in 0..20
goal when C == 12
move inc: set C = C + 1 cost 999999999999999999
search cheapest
"""


def puzzle_from(text: str, **params: object) -> Puzzle:
    return elaborate(parse(text, "test.puz"), {k: str(v) for k, v in params.items()})


def compiled_from(text: str, **params: object) -> CompiledPuzzle:
    return compile_puzzle(puzzle_from(text, **params))


@pytest.fixture
def root() -> Path:
    return ROOT
