"""The model of a puzzle: its board (`board`), its typed expressions (`expr`) and the one
puzzle model every spec elaborates to (`puzzle`)."""

from .board import Board, Cell, Direction
from .puzzle import (
    ANY,
    EMPTY,
    AnyCell,
    Bind,
    Carry,
    Counter,
    Goal,
    Lit,
    Move,
    Part,
    PieceType,
    Place,
    Puzzle,
    Rewrite,
    SafetyRule,
    Slide,
    State,
    Symmetry,
)

__all__ = [
    "ANY",
    "EMPTY",
    "AnyCell",
    "Bind",
    "Board",
    "Carry",
    "Cell",
    "Counter",
    "Direction",
    "Goal",
    "Lit",
    "Move",
    "Part",
    "PieceType",
    "Place",
    "Puzzle",
    "Rewrite",
    "SafetyRule",
    "Slide",
    "State",
    "Symmetry",
]
