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


def puzzle_from(text: str, **params: object) -> Puzzle:
    return elaborate(parse(text, "test.puz"), {k: str(v) for k, v in params.items()})


def compiled_from(text: str, **params: object) -> CompiledPuzzle:
    return compile_puzzle(puzzle_from(text, **params))


@pytest.fixture
def root() -> Path:
    return ROOT
