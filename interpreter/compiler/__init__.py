"""The puzzle model compiled into a compact state encoding and precomputed move tables."""

from ..model import PlacementPuzzle, PlacesPuzzle, Puzzle
from .compile import CompiledPuzzle, MoveLabel
from .placement import CompiledPlacement
from .places import CompiledPlaces

Compiled = CompiledPuzzle | CompiledPlaces | CompiledPlacement


def compile_puzzle(puzzle: Puzzle | PlacesPuzzle | PlacementPuzzle) -> Compiled:
    """Cell boards compile to move tables; boards of places to carry moves with safety rules;
    placement puzzles to hand-and-cursor moves."""
    if isinstance(puzzle, PlacesPuzzle):
        return CompiledPlaces(puzzle)
    if isinstance(puzzle, PlacementPuzzle):
        return CompiledPlacement(puzzle)
    return CompiledPuzzle(puzzle)


__all__ = ["Compiled", "CompiledPlacement", "CompiledPlaces", "CompiledPuzzle", "MoveLabel", "compile_puzzle"]
