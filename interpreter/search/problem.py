"""What the engine needs from a puzzle, and nothing more."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
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


class NamedMoves(Problem[S], Protocol):
    """A problem that finds the moves between two states without expanding every successor."""

    def moves_to(self, before: S, after: S) -> Sequence[tuple[S, int]]:
        """`expand(before)`'s successors that are `after`, in its order."""
        ...


def steps(
    compiled: NamedMoves[Any],
    states: list[bytes],
    last: bool = False,
    order: Callable[[list[tuple[bytes, int]]], list[tuple[bytes, int]]] | None = None,
) -> list[tuple[int, bytes]]:
    """The moves between these states, for a search that kept only states (the kernel stores
    no moves: 4 bytes a state saved; the workers hand back states): each is the move the
    Python engine records, found again among the state's successors (taken in `order`, where
    the search took them so): the first that gives the next state (the last, with `last`)."""
    path = []
    for before, after in itertools.pairwise(states):
        if order is None:
            moves = [move for _, move in compiled.moves_to(before, after)]
        else:
            moves = [move for child, move in order(list(compiled.expand(before))) if child == after]
        path.append((moves[-1] if last else moves[0], after))
    return path
