"""What the engine needs from a puzzle, and nothing more."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar

State = Any  # any hashable value: the engine never looks inside a state
S = TypeVar("S", bound=Hashable)


class Problem(Protocol[S]):
    @property
    def start(self) -> S: ...

    @property
    def goal_state(self) -> S | None:
        """The one goal state, when the goal is a single concrete state."""
        ...

    @property
    def invertible(self) -> bool:
        """Whether expand_back gives every predecessor."""
        ...

    @property
    def acyclic(self) -> bool:
        """Whether no sequence of moves comes back to a state it left (a depth-first walk
        then keeps no set of the states on its path)."""
        ...

    def expand(self, state: S) -> Sequence[tuple[S, int]]:
        """Successors, each with the number of the move that produces it."""
        ...

    def expand_back(self, state: S) -> Sequence[tuple[S, int]]:
        """Predecessors, each with the number of the move that leads from it to `state`."""
        ...

    def is_goal(self, state: S) -> bool: ...
