"""The puzzle model compiled into a compact state encoding, move families and functions."""

from ..model.puzzle import Puzzle
from .puzzle import CompiledPuzzle, MoveLabel


def compile_puzzle(puzzle: Puzzle) -> CompiledPuzzle:
    return CompiledPuzzle(puzzle)


__all__ = ["CompiledPuzzle", "MoveLabel", "compile_puzzle"]
