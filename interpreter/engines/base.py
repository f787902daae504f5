"""What an engine is: something that says whether it can answer a question on a compiled
puzzle (and if not, why, in one sentence), and answers it with the same result type under
the same limits. The engines are described in `registry`; the plan (`puzint.plan`) chooses
among them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from ..compiler import CompiledPuzzle
from ..search import Limits, SearchResult
from .query import Query

Path = list[tuple[int, bytes]]


class HandOver(Exception):
    """An engine met, during a search, what it cannot answer exactly (a value past what its
    words hold, a move of cost 0 while counting): the runner hands the question to Python,
    which answers it from the start."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class Engine(Protocol):
    name: str
    summary: str  # what it is, in a line (`--engine help`)

    def why_not(self, compiled: CompiledPuzzle, query: Query) -> str | None:
        """Why this engine does not answer the question on this puzzle (None: it does)."""

    def search(self, compiled: CompiledPuzzle, query: Query, limits: Limits) -> SearchResult:
        """The answer: status, states, the solution, counts, as the question asks. A limit
        reached is an answer too (status "limit")."""

    def goal_states(self, compiled: CompiledPuzzle, limits: Limits, visited: list[int], moves: bool) -> Iterator[Path]:
        """`search all`: one path to every goal state, each once, as found (`visited[0]`
        counts the states visited). Without `moves`, a path may be its goal state alone."""

    def count_goal_states(self, compiled: CompiledPuzzle, limits: Limits, counter: list[int]) -> None:
        """`search all`, counted only: `counter` is [states visited, goal states found]."""

    def statistics(self) -> dict[str, object] | None:
        """A solver's own figures of its last walk of goal states (None: it keeps none)."""
