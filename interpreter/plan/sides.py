"""What the runner asks of each engine (`runner.Side`): a search's answer, or a walk of a
`search all` spec's goal states, and how the runner reads either."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..compiler import CompiledPuzzle
from ..engines import Engine, Path, Query
from ..search import Limits, SearchResult
from ..search.limits import LimitReached, stop_reason
from ..search.result import LIMIT
from .race import StreamAlone
from .runner import renumbered

# the solutions a side that races keeps for the race's end: past them it lists alone (`StreamAlone`)
RACE_HOLDS = 10_000


class Searching:
    """A search: the engine's `SearchResult` (a stop after its search's own loop included)."""

    def __init__(self, compiled: CompiledPuzzle, query: Query):
        self.compiled, self.query = compiled, query

    def __call__(self, engine: Engine, limits: Limits, final: bool) -> SearchResult:
        try:
            return engine.search(self.compiled, self.query, limits)
        except LimitReached as exc:  # a stop that came after the search's own loop (counting orbits)
            return SearchResult(LIMIT, 0, limit_reason=exc.reason, method="")

    def cut(self, result: SearchResult) -> str | None:
        if result.status == LIMIT:
            return result.limit_reason or "stopped"
        return result.unique_unknown

    def renumbered(self, result: SearchResult, keys: list[tuple[object, ...]]) -> SearchResult:
        result.path = renumbered(self.compiled, keys, result.path)
        return result

    def stopped(self, reason: str, states: int) -> SearchResult:
        return SearchResult(LIMIT, states, limit_reason=reason, method="")

    def extent(self, result: SearchResult) -> int | None:
        return None  # two searches cut short: neither has an answer to give


@dataclass
class Walked:
    """A walk of the goal states: the paths `found` (None: handed on one by one as found, or
    only counted), the states `visited`, their number where only that was asked (`counted`:
    states visited, goal states), the engine's own figures, and the limit it `stopped` at."""

    found: list[Path] | None = None
    visited: int = 0
    counted: tuple[int, int] | None = None
    statistics: dict[str, object] | None = None
    stopped: str | None = None


Take = Callable[[Path], bool]  # a goal state's path handed on as found; True: enough


class Walking:
    """The walk of a `search all` spec's goal states (each path, with `moves`): counted only
    (`count_only`), or found; an engine that answers alone hands each to `take` as it finds
    it (a listing streams), one that may not be the answer keeps what it finds until it has
    `enough` (all: None) for the caller to hand on if it is: `enough` goal states, or with
    `classes` (a goal state's class of symmetric ones), `enough` classes."""

    def __init__(
        self,
        compiled: CompiledPuzzle,
        moves: bool,
        count_only: bool,
        enough: int | None,
        take: Take | None,
        classes: Callable[[bytes], bytes] | None = None,
    ):
        self.compiled, self.moves, self.count_only, self.enough, self.take = compiled, moves, count_only, enough, take
        self.classes = classes

    def __call__(self, engine: Engine, limits: Limits, final: bool) -> Walked:
        walked = Walked()
        try:
            if self.count_only:
                counter = [0, 0]
                try:
                    engine.count_goal_states(self.compiled, limits, counter)
                finally:
                    walked.counted = (counter[0], counter[1])
            else:
                self._walk(engine, limits, final and self.take is not None, walked)
        except (LimitReached, KeyboardInterrupt) as exc:
            walked.stopped = stop_reason(exc)
        try:
            walked.statistics = engine.statistics()  # the figures of a walk stopped too
        except (LimitReached, KeyboardInterrupt) as exc:  # a stop that lands here, after the walk
            walked.stopped = walked.stopped or stop_reason(exc)
        return walked

    def _walk(self, engine: Engine, limits: Limits, handing_on: bool, walked: Walked) -> None:
        visited = [0]
        found: list[Path] = []
        seen: set[bytes] = set()  # the classes found, with `classes`
        walked.found = None if handing_on else found
        try:
            for path in engine.goal_states(self.compiled, limits, visited, self.moves):
                if handing_on:
                    assert self.take is not None
                    if self.take(path):
                        break
                    continue
                found.append(path)
                if self.classes is not None and self.enough is not None:
                    seen.add(self.classes(path[-1][1] if path else self.compiled.start))
                if self.enough is not None and len(seen if self.classes is not None else found) >= self.enough:
                    break
                if self.enough is None and self.take is not None and len(found) >= RACE_HOLDS:
                    raise StreamAlone(f"found more than {RACE_HOLDS:,} solutions: listed by it alone, as found")
        finally:
            walked.visited = visited[0]

    def cut(self, walked: Walked) -> str | None:
        return walked.stopped

    def renumbered(self, walked: Walked, keys: list[tuple[object, ...]]) -> Walked:
        if walked.found is not None:
            walked.found = [renumbered(self.compiled, keys, path) for path in walked.found]
        return walked

    def stopped(self, reason: str, states: int) -> Walked:
        return Walked(found=[], visited=states, stopped=reason)

    def extent(self, walked: Walked) -> int | None:
        if walked.counted is not None:
            return walked.counted[1]
        return len(walked.found) if walked.found is not None else None
