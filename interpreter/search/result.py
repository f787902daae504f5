"""The outcome of a search, independent of how it will be shown."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import SpecError
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
    layers: list[int] | None = None  # with every reachable state: how many are 0, 1, 2... moves away
    farthest: State | None = None  # and one of those farthest away (the last layer's first)
    to_goal: bool = False  # the layers are distances to the goal: the states that can reach it
    cost: int | None = None  # total cost of the solution (cheapest search)
    limit_reason: str | None = None
    method: str = ""
    bytes_per_state: float | None = None  # memory the stored states took (the compiled kernel measures it)
    symmetry_note: str | None = None  # why a figure up to symmetry is not given (see NotASymmetry)
    unique: bool | None = None  # a filling's one solution found: whether it is the only one
    unique_unknown: str | None = None  # and, where a limit stopped the search for a second, which
    statistics: dict[str, object] | None = None  # a solver's own figures (branches, conflicts, seconds)
    engine: str = ""  # the engine that answered (plan.runner)
    tried_first: str | None = None  # where the plan changed its mind: the engine tried first,
    tried_first_stopped: str | None = None  # and why it did not answer
    chosen: str | None = None  # why `auto` asked `engine` alone, with no race (plan.memory)
    heuristic: str | None = None  # what guided the search: none, spec, derived, spec and derived (plan.heuristic)
    heuristic_about: str = ""  # the derived one: its tables, their size, how long they took
    heuristic_why: str = ""  # why `auto` derived none, where it chose not to (said by --verbose)
    estimate_at_start: int | None = None  # the heuristic's value at the start
    dead_pruned: bool = False  # states the derived tables prove dead were pruned, not explored
    dead_at_start: bool = False  # ... the start among them: it can never reach the goal
    proof: str | None = None  # why there is no solution, shown before any search (`heuristics.parity`)

    @property
    def shown_at_start(self) -> int | str | None:
        """The heuristic's value at the start as the output says it: "dead" where the derived
        tables show the start can never reach the goal."""
        return "dead" if self.dead_at_start else self.estimate_at_start

    @property
    def stopped(self) -> bool:
        """Whether a limit stopped the search before it had answered the whole question: with
        no answer, or with a filling's solution whose uniqueness it had not yet proved."""
        return self.status == LIMIT or self.unique_unknown is not None

    @property
    def length(self) -> int | None:
        return len(self.path) if self.status == SOLVED else None

    @property
    def depth(self) -> int | None:
        """How many moves away the farthest reachable state is."""
        return len(self.layers) - 1 if self.layers is not None else None


class NotASymmetry(SpecError):
    """A declared symmetry that is not one of what a search found (its states, moves, costs or
    goals). A figure up to symmetry is then not given, with this as the reason; the rest of
    the answer stands."""

    def reason(self) -> str:
        diagnostic = self.diagnostics[0]
        where = f" (line {diagnostic.pos.line}, column {diagnostic.pos.column})" if diagnostic.pos.line else ""
        return diagnostic.message + where
