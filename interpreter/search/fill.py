"""The fill search: every complete filling that keeps the rules, found by deciding the most
constrained open thing first (the one with the fewest values left), and ruling values out
as soon as what is decided says they cannot be.

The problem is given as things to decide (each with its values) and checks (pieces of the
rules), each reading some of the things:

- a check is made as soon as everything it reads is decided (a *partial* one, an `all
  different` of cells, whenever one of its things is);
- after each decision, an `all different` takes the value from the other open things it
  reads, and a check with one open thing left keeps only the values that pass it (forward
  checking): an open thing with no value left ends the branch at once.

A filling reached this way keeps every check: the same fillings as the state-space walk of
the same puzzle (one move deciding the next open thing in reading order), found in another
order, usually far fewer states later. Where the puzzle has safety rules, which hold of every
partial filling the walk makes, the things are decided in the walk's order instead
(`in_reading_order`), each partial filling's safety asked as the walk asks it, and the
checks still rule values out ahead: the walk's fillings, in its order. Solutions are given as
that walk's path (each thing decided in reading order), so that every renderer and check reads
them the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from .limits import LimitReached, Limits, stop_reason
from .result import LIMIT, NO_SOLUTION, SOLVED, SearchResult

Path = list[tuple[int, bytes]]


class Check(Protocol):
    @property
    def reads(self) -> tuple[int, ...] | None:
        """The things it reads, by place (None: every thing)."""

    @property
    def partial(self) -> bool:
        """Checked whenever one of the things it reads is decided (a repeat stays a repeat)."""

    @property
    def distinct(self) -> tuple[int, ...] | None:
        """Where it is an `all different` of these things."""

    def holds(self, state: bytes) -> bool: ...

    def holds_open(self, state: bytes, open_things: list[int]) -> bool:
        """Whether some way of deciding the open things may still keep it (False: none can)."""
        ...


class FillProblem(Protocol):
    start: bytes

    @property
    def things(self) -> int: ...

    def values(self, k: int) -> tuple[int, ...]: ...

    def given(self) -> dict[int, set[int]]:
        """Values each thing may not take because of what the start gives (an `all different`
        with a given cell): thing -> values ruled out."""
        ...

    def key(self, k: int, value: int) -> int | None:
        """What an `all different` compares of thing k holding `value`: its piece (None for an
        empty cell, which an `all different` leaves out), or its number."""
        ...

    def decided(self, state: bytes, k: int, value: int) -> bytes:
        """The state with thing k set to value (only that: the walk's progress is not kept)."""
        ...

    def checks(self) -> Sequence[Check]: ...

    def safe(self, state: bytes, k: int) -> bool:
        """Whether the safety rules hold of the walk's partial filling with things 0..k decided."""
        ...

    def path(self, values: list[int]) -> Path:
        """The state-space walk's path to the filling with these values (thing by thing)."""
        ...


class FillSearch:
    """One search of one problem: `solutions()` yields each filling's values as found."""

    def __init__(self, problem: FillProblem, limits: Limits, visited: list[int], in_reading_order: bool = False):
        self.problem = problem
        self.in_reading_order = in_reading_order
        self.limits = limits
        self.visited = visited
        n = problem.things
        self.n = n
        self.checks = list(problem.checks())
        self.touching: list[list[int]] = [[] for _ in range(n)]  # thing -> checks reading it
        self.everywhere: list[int] = []  # checks that read anything: made when all is decided
        for i, check in enumerate(self.checks):
            if check.reads is None:
                self.everywhere.append(i)
            else:
                for k in check.reads:
                    self.touching[k].append(i)
        self.budget = 0

    def solutions(self) -> Iterator[list[int]]:
        problem = self.problem
        domains = [list(problem.values(k)) for k in range(self.n)]
        for k, out in problem.given().items():
            domains[k] = [v for v in domains[k] if v not in out]
        values: list[int | None] = [None] * self.n
        if any(not d for d in domains):
            return
        if not all(check.holds(problem.start) for check in self.checks if check.reads == ()):
            return  # a check of what the start gives alone
        if not self.n:
            if all(self.checks[i].holds(problem.start) for i in range(len(self.checks))):
                yield []
            return
        yield from self._search(problem.start, domains, values, self.n)

    def _search(
        self, state: bytes, domains: list[list[int]], values: list[int | None], open_count: int
    ) -> Iterator[list[int]]:
        if self.in_reading_order:
            k = self.n - open_count
        else:
            k = min((i for i in range(self.n) if values[i] is None), key=lambda i: (len(domains[i]), i))
        for value in domains[k]:
            self.visited[0] += 1
            self.budget -= 1
            if self.budget <= 0:
                self.budget = self.limits.check(self.visited[0], stored=False)
            child = self.problem.decided(state, k, value)
            if self.in_reading_order and not self.problem.safe(child, k):
                continue
            values[k] = value
            narrowed = self._narrow(child, k, domains, values, open_count - 1)
            if narrowed is not None:
                if open_count == 1:
                    yield [v for v in values]  # type: ignore[misc]
                else:
                    yield from self._search(child, narrowed, values, open_count - 1)
            values[k] = None

    def _narrow(
        self, state: bytes, k: int, domains: list[list[int]], values: list[int | None], open_count: int
    ) -> list[list[int]] | None:
        """After thing k is decided: whether the checks it completes hold, and the open
        things' values that are still possible (None: a check fails, or a thing has none)."""
        narrowed = list(domains)
        narrowed[k] = [values[k]]  # type: ignore[list-item]
        checks = self.checks
        for i in self.touching[k]:
            check = checks[i]
            open_things = [t for t in check.reads if values[t] is None]  # type: ignore[union-attr]
            if (not open_things or check.partial) and not check.holds(state):
                return None
            if open_things and not check.holds_open(state, open_things):
                return None
            if check.distinct is not None and open_things:
                key = self.problem.key
                taken = key(k, values[k])  # type: ignore[arg-type]
                if taken is None:
                    continue
                for t in open_things:
                    kept = [v for v in narrowed[t] if key(t, v) != taken]
                    if len(kept) < len(narrowed[t]):
                        if not kept:
                            return None
                        narrowed[t] = kept
            elif len(open_things) == 1 and not check.partial:
                (t,) = open_things
                kept = [v for v in narrowed[t] if check.holds(self.problem.decided(state, t, v))]
                if not kept:
                    return None
                narrowed[t] = kept
        if open_count == 0:
            for i in self.everywhere:
                if not checks[i].holds(state):
                    return None
        return narrowed


def fillings(
    problem: FillProblem, limits: Limits, visited: list[int], in_reading_order: bool = False
) -> Iterator[Path]:
    """Every filling that keeps the rules, as the state-space walk's path to it (`in_reading_order`:
    a filling with safety rules)."""
    for values in FillSearch(problem, limits, visited, in_reading_order).solutions():
        yield problem.path(values)


def count_fillings(problem: FillProblem, limits: Limits, counter: list[int]) -> None:
    """How many fillings keep the rules: counter is [things decided, fillings found]."""
    visited = [0]
    try:
        for _ in FillSearch(problem, limits, visited).solutions():
            counter[1] += 1
    finally:
        counter[0] = visited[0]


def first_and_whether_unique(paths: Iterator[Path], visited: list[int], method: str) -> SearchResult:
    """`search any` on a filling: the first solution of a walk, and whether it is the only one
    (the walk goes on to a second; stopped by a limit before, that is not known, and the
    result says which limit: `unique_unknown`)."""
    found: list[Path] = []
    try:
        for path in paths:
            found.append(path)
            if len(found) == 2:
                break
    except (LimitReached, KeyboardInterrupt) as exc:
        if not found:
            return SearchResult(LIMIT, visited[0], limit_reason=stop_reason(exc), method=method)
        cut = SearchResult(SOLVED, visited[0], path=found[0], method=method)
        cut.unique_unknown = stop_reason(exc)
        return cut
    if not found:
        return SearchResult(NO_SOLUTION, visited[0], method=method)
    result = SearchResult(SOLVED, visited[0], path=found[0], method=method)
    result.unique = len(found) == 1
    return result
