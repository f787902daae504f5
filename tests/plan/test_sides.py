"""The sides the runner asks of an engine: a stop that lands outside the engine's own loop
(the race's "answered first" from a timer tick, say) still reads as a stop."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from puzint.engines import registry
from puzint.plan import runner
from puzint.plan.sides import Walking
from puzint.runner import load
from puzint.search import Limits
from puzint.search.limits import LimitReached

from tests.conftest import SPECS

REASON = "compiled, run beside it, answered first"


class _StoppedAfterTheWalk:
    """An engine whose walk ends, and whose figures after it are where the stop lands."""

    name = "python"

    def goal_states(self, compiled: Any, limits: Limits, visited: list[int], moves: bool) -> Iterator[Any]:
        visited[0] = 3
        yield from ()

    def statistics(self) -> dict[str, object] | None:
        raise LimitReached(REASON)


def test_a_stop_in_the_steps_after_a_walk_reads_as_the_walk_stopped() -> None:
    walking = Walking(load(SPECS / "queens.puz", {"n": "4"}), False, False, None, None)
    walked = walking(_StoppedAfterTheWalk(), Limits(), False)  # type: ignore[arg-type]
    assert (walked.stopped, walked.visited, walking.cut(walked)) == (REASON, 3, REASON)


class _Side:
    def __init__(self, raises_after: bool) -> None:
        self.raises_after = raises_after

    def __call__(self, engine: Any, limits: Limits, final: bool) -> str:
        if not self.raises_after:
            raise LimitReached(REASON)
        return "the answer"

    def stopped(self, reason: str, states: int) -> str:
        return f"stopped: {reason}"


def _watch_that_stops_on_leaving(stops: bool) -> Any:
    @contextmanager
    def watched() -> Iterator[None]:
        yield
        if stops:
            raise LimitReached(REASON)  # the tick that lands between the answer and the watch's end

    return watched


def test_an_answer_made_before_the_stop_stands_and_a_side_stopped_outside_its_loop_reads_as_stopped() -> None:
    assert runner._watched_python(_Side(True), _watch_that_stops_on_leaving(True), Limits()) == "the answer"  # type: ignore[arg-type]
    assert runner._watched_python(_Side(False), _watch_that_stops_on_leaving(False), Limits()) == f"stopped: {REASON}"  # type: ignore[arg-type]
    assert registry.PYTHON.name == "python"
