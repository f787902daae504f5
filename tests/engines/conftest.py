"""A local Dask cluster of two worker processes, started once for the tests that run the
workers engine (tests/engines/test_workers.py, test_layers_across.py) and stopped after them;
the race's copies made (`pids`), and a Python search that waits for the race's other side
(`slow_python`), for the tests of the race and of what it leaves for the next run."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from puzint.engines import race
from puzint.engines.python import PythonEngine
from puzint.search import Limits


@pytest.fixture(scope="session")
def cluster() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
    ) as local:
        yield local.scheduler_address


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
    """Python's first search polls its limits, and finds nothing, until they stop it (the
    race's other engine is ahead) or 60 s pass; later searches are Python's own."""
    calls = [0]

    def stalled(limits: Limits) -> None:
        calls[0] += 1
        if calls[0] > 1:
            return
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
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

    monkeypatch.setattr(PythonEngine, "search", search)
    monkeypatch.setattr(PythonEngine, "goal_states", goal_states)
