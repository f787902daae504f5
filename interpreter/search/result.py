"""The outcome of a search, independent of how it will be shown."""

from __future__ import annotations

from dataclasses import dataclass, field

from .problem import State

SOLVED = "solved"
NO_SOLUTION = "no-solution"
LIMIT = "limit"


@dataclass
class SearchResult:
    status: str  # solved | no-solution | limit
    states: int  # distinct states the search stored
    seconds: float = 0.0
    path: list[tuple[int, State]] = field(default_factory=list)  # (move number, state after it)
    count: int | None = None  # distinct shortest solutions (with counting)
    reachable: int | None = None  # every state reachable from the start (with exhaustive search)
    count_up_to_symmetry: int | None = None  # shortest solutions, symmetric ones counted once
    reachable_up_to_symmetry: int | None = None  # reachable states, symmetric ones counted once
    reachable_goals: int | None = None  # of the reachable states, how many are goals
    cost: int | None = None  # total cost of the solution (cheapest search)
    limit_reason: str | None = None
    method: str = ""
    bytes_per_state: float | None = None  # memory the stored states took (the compiled kernel measures it)

    @property
    def length(self) -> int | None:
        return len(self.path) if self.status == SOLVED else None
