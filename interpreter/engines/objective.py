"""A filling's objective on the engines that walk every solution (Python's fill searches, the
kernel's): the walk is kept to its best solutions (`search.objective`). CP-SAT says the
objective in its own model instead (`engines.cpsat`)."""

from __future__ import annotations

from collections.abc import Iterable

from ..compiler import CompiledPuzzle
from ..search.objective import best_of
from .base import Path


def best_solutions(compiled: CompiledPuzzle, paths: Iterable[Path]) -> Iterable[Path]:
    """`paths` kept to those of the best value of the puzzle's objective (all: none)."""
    objective = compiled.puzzle.objective
    if objective is None or compiled.objective_value is None:
        return paths
    return best_of(paths, compiled.objective_value, objective.better, compiled.start)
