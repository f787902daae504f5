"""What the engine needs from a puzzle, and nothing more."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

State = Hashable


class Problem(Protocol):
    start: State
    goal_state: State | None  # the one goal state, when the goal is a single concrete state
    invertible: bool  # whether expand_back gives every predecessor

    def expand(self, state: State) -> Sequence[tuple[State, int]]:
        """Successors, each with the number of the move that produces it."""
        ...

    def expand_back(self, state: State) -> Sequence[tuple[State, int]]:
        """Predecessors, each with the number of the move that leads from it to `state`."""
        ...

    def is_goal(self, state: State) -> bool: ...
