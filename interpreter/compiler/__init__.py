"""The puzzle model compiled into a compact state encoding and precomputed move tables."""

from ..model import PlacesPuzzle, Puzzle
from .compile import CompiledPuzzle, MoveLabel
from .places import CompiledPlaces

Compiled = CompiledPuzzle | CompiledPlaces


def compile_puzzle(puzzle: Puzzle | PlacesPuzzle) -> Compiled:
    """Cell boards compile to move tables; boards of places to carry moves with safety rules."""
    if isinstance(puzzle, PlacesPuzzle):
        return CompiledPlaces(puzzle)
    return CompiledPuzzle(puzzle)


__all__ = ["Compiled", "CompiledPlaces", "CompiledPuzzle", "MoveLabel", "compile_puzzle"]
