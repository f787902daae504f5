"""What a worker runs (engines/workers/engine.py): the walk of a few subtrees of a `search all`
spec (or the search for one solution of a `search any` spec), from their roots, on the
kernel where it runs (else in Python), under the limits the driver hands down. A module of
its own, importable by a worker process: the task and its arguments are plain data (the
spec's text and parameters, the roots as bytes), and each worker compiles the spec once and
keeps it for its next tasks."""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass, field

from ...compiler import CompiledPuzzle, compile_puzzle
from ...language.elaborate import elaborate
from ...language.parser import parse
from ...search import Limits
from ...search.depth import REMEMBER
from ...search.limits import LimitReached, rss_mb, stop_reason
from ...search.result import LIMIT, SOLVED
from ..compiled import CompiledEngine
from ..python import PythonEngine
from ..query import Query

_COMPILED: dict[tuple[str, str, tuple[tuple[str, str], ...]], CompiledPuzzle] = {}


@dataclass(frozen=True)
class Job:
    """The spec a task walks: its text, its file's name and the parameters given; `moves`:
    whether each goal's path is wanted (else the goal state alone); `kernel`: walked on the
    kernel (the driver decides, so that every worker keys the goal states alike)."""

    source: str
    filename: str
    given: tuple[tuple[str, str], ...]
    moves: bool
    kernel: bool


@dataclass
class Report:
    """A task's answer: the states it visited, each goal state found (with the root it was
    found under and, where paths are wanted, the states from the root to it), and the limit
    that stopped it, if one did."""

    worker: str
    visited: int = 0
    goals: list[tuple[bytes, bytes, list[bytes]]] = field(default_factory=list)
    stopped: str | None = None
    memory_mb: float = 0.0  # the worker process's peak memory
    packed: bool = False  # the goal states as the kernel packs them (kernel.searches.depth.unpacked)


def _left(budget: tuple[float | None, int | None], visited: int, started: float) -> Limits:
    """The limits of a task's next root: what its budget leaves after the roots before."""
    seconds, states = budget
    return Limits(
        max_states=None if states is None else max(1, states - visited),
        timeout=None if seconds is None else max(0.1, seconds - (time.monotonic() - started)),
    )


def compiled_for(job: Job) -> CompiledPuzzle:
    key = (job.source, job.filename, job.given)
    if key not in _COMPILED:
        _COMPILED[key] = compile_puzzle(elaborate(parse(job.source, job.filename), dict(job.given)))
    return _COMPILED[key]


def walk_roots(job: Job, roots: list[bytes], budget: tuple[float | None, int | None]) -> Report:
    """Every goal state under each root, as the one-worker walk finds them."""
    compiled = compiled_for(job)
    report = Report(f"{socket.gethostname()}:{os.getpid()}")
    engine = CompiledEngine() if job.kernel else PythonEngine()
    started = time.monotonic()
    remember = REMEMBER  # until a subtree shows that the puzzle's walks meet no state twice
    try:
        for root in roots:
            limits = _left(budget, report.visited, started)
            visited = [0, 0]
            moved = compiled.starting_at(root)
            try:
                if job.kernel and not job.moves:  # the goal states alone: read off the walk's set at its end
                    from ...kernel.searches.depth import goal_set

                    goals, remembering = goal_set(moved, limits, visited, remember)
                    report.goals.extend((root, goal, []) for goal in goals)
                    report.packed = True
                    remember = remember if remembering else 0
                    continue
                for path in engine.goal_states(moved, limits, visited, job.moves):
                    goal = path[-1][1] if path else root
                    report.goals.append((root, goal, [state for _, state in path] if job.moves else []))
            finally:
                report.visited += visited[0]
    except (LimitReached, KeyboardInterrupt) as exc:
        report.stopped = stop_reason(exc)
    report.memory_mb = rss_mb()  # the peak, as the memory limit reads it
    return report


@dataclass
class Found:
    """A task's answer to `search any`: the states it visited and, where a subtree held a
    solution, its root and the states from the root to the goal."""

    worker: str
    visited: int = 0
    root: bytes | None = None
    states: list[bytes] = field(default_factory=list)
    stopped: str | None = None


def find_any(job: Job, roots: list[bytes], budget: tuple[float | None, int | None]) -> Found:
    """A solution under one of the roots, found as the one-worker `search any` finds one
    (depth first, the moves tried in the spec's order or its heuristic's), or none."""
    compiled = compiled_for(job)
    found = Found(f"{socket.gethostname()}:{os.getpid()}")
    engine = CompiledEngine() if job.kernel else PythonEngine()
    started = time.monotonic()
    for root in roots:
        limits = _left(budget, found.visited, started)
        moved = compiled.starting_at(root)
        result = engine.search(moved, Query.of(moved, mode="any"), limits)
        found.visited += result.states
        if result.status == LIMIT:
            found.stopped = result.limit_reason
            break
        if result.status == SOLVED:
            found.root, found.states = root, [state for _, state in result.path]
            break
    return found
