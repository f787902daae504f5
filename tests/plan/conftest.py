"""The race's copies made (`pids`), and a Python search that waits for the race's other side
(`slow_python`), for the tests of the runner, the race and of what it leaves for the next run."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from puzint.engines.python import PythonEngine
from puzint.plan import race
from puzint.search import Limits

FAST_SEARCH, FAST_GOAL_STATES = PythonEngine.search, PythonEngine.goal_states


@pytest.fixture
def pids(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pid of each race's copy."""
    started: list[int] = []
    fork = race._fork

    def recorded(*args: Any) -> tuple[int, int]:
        pid, pipe = fork(*args)
        started.append(pid)
        return pid, pipe

    monkeypatch.setattr(race, "_fork", recorded)
    return started


@pytest.fixture
def slow_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Python's first search polls its limits, and finds nothing, until they stop it (an engine
    beside it is ahead), or until every engine beside it has dropped out (handed over, failed:
    then Python answers), or 60 s pass; later searches are Python's own."""
    calls = [0]
    races: list[race.Race] = []
    made = race.Race.__init__

    def recorded(self: race.Race, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        races.append(self)

    def dropped_out() -> bool:
        return bool(races) and races[-1].forked() and not races[-1].still_running()

    def stalled(limits: Limits) -> None:
        calls[0] += 1
        if calls[0] > 1:
            return
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not dropped_out():
            limits.check(0)
            time.sleep(0.01)

    def search(self: PythonEngine, compiled: Any, query: Any, limits: Limits) -> Any:
        stalled(limits)
        return FAST_SEARCH(self, compiled, query, limits)

    def goal_states(
        self: PythonEngine, compiled: Any, limits: Limits, visited: list[int], moves: bool
    ) -> Iterator[Any]:
        stalled(limits)
        return FAST_GOAL_STATES(self, compiled, limits, visited, moves)

    monkeypatch.setattr(race.Race, "__init__", recorded)
    monkeypatch.setattr(PythonEngine, "search", search)
    monkeypatch.setattr(PythonEngine, "goal_states", goal_states)
