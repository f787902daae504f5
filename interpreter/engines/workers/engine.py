"""The workers engine: a `search all` walk split into subtrees that Dask's workers walk at
once (`subtrees`), `search any` from whichever subtree holds a solution first, and the
breadth-first searches' layers shared among them (`layers_across`). See the package's
docstring for why Dask, the split, and why the answer is the same."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...compiler import CompiledPuzzle
from ...search import Limits, SearchResult
from ...search.depth import NO_MOVE
from ...search.limits import LimitReached, state_limit, stop_reason
from ...search.problem import steps
from ...search.result import LIMIT, NO_SOLUTION, SOLVED
from ..base import Path
from ..query import Query
from .options import CONNECT_SECONDS, NOT_INSTALLED, Workers, installed, said

TASKS_PER_WORKER = 24
SPLIT_STATES = 100_000  # the most states the split's layers hold
ANY_METHOD = "depth first, workers"


@dataclass
class Split:
    """The walk's top, breadth first: each state's parent and move (to give a path from the
    start), the goal states met, and the last layer (the subtrees' roots)."""

    parents: dict[bytes, tuple[bytes, int] | None] = field(default_factory=dict)
    goals: list[bytes] = field(default_factory=list)
    roots: list[bytes] = field(default_factory=list)

    def path_to(self, state: bytes) -> Path:
        steps: Path = []
        at = self.parents.get(state)
        while at is not None:
            parent, move = at
            steps.append((move, state))
            state, at = parent, self.parents.get(parent)
        return steps[::-1]


def split(compiled: CompiledPuzzle, wanted: int, limits: Limits) -> Split:
    """Layers from the start until the last holds at least `wanted` states (or nothing
    follows it, or SPLIT_STATES are held)."""
    top = Split(parents={compiled.start: None})
    layer = [compiled.start]
    if compiled.is_goal(compiled.start):
        top.goals.append(compiled.start)
        return top
    while layer and len(layer) < wanted and len(top.parents) < SPLIT_STATES:
        following = []
        for state in layer:
            for child, move in compiled.expand(state):
                if child in top.parents:
                    continue
                top.parents[child] = (state, move)
                if compiled.is_goal(child):
                    top.goals.append(child)
                else:
                    following.append(child)
        limits.check(len(top.parents), stored=False)
        layer = following
    top.roots = layer
    return top


class WorkersEngine:
    name = "workers"
    summary = (
        "Dask's workers (this machine's cores, or a cluster), on the kernel: subtrees walked at once, "
        "or breadth-first layers shared among them"
    )

    def __init__(self, workers: Workers | None = None):
        self.workers = workers or Workers()
        self._statistics: dict[str, object] | None = None

    def why_not(self, compiled: CompiledPuzzle, query: Query) -> str | None:
        if not installed():
            return NOT_INSTALLED
        if compiled.filling is not None:
            return "a logic puzzle's fillings are walked by the fill search and the constraint solver, on one core"
        if query.listing or query.trajectories:
            return "every shortest solution and trajectories are found in Python, on one core"
        if query.mode == "all" and not query.reach:  # the walk of every goal state, counted or listed
            if compiled.puzzle.heuristic is not None:
                return "a heuristic orders one walk's moves; the workers' subtrees are walked in no common order"
            return None
        if query.mode == "any" and not query.layered:
            return None
        from . import layers_across

        return layers_across.why_not(compiled, query)

    def search(self, compiled: CompiledPuzzle, query: Query, limits: Limits) -> SearchResult:
        """`search any`: one solution, from whichever subtree holds one first (the others are
        then cancelled); no solution where no subtree holds one. The shortest solution, its
        count and the reachable states: breadth-first layers shared among the workers
        (`layers_across`)."""
        if query.mode != "any" or query.layered:
            from . import layers_across

            client, cluster = _connect(self.workers)
            try:
                return layers_across.search(compiled, query, limits, client, self.workers.describe())
            finally:
                client.close()
                if cluster is not None:
                    cluster.close()
        started = time.monotonic()
        top = split(compiled, self.workers.size() * TASKS_PER_WORKER, limits)
        visited = len(top.parents)
        if top.goals:
            goal = top.goals[0]
            return SearchResult(SOLVED, visited, time.monotonic() - started, top.path_to(goal), method=ANY_METHOD)
        if not top.roots:
            return SearchResult(NO_SOLUTION, visited, time.monotonic() - started, method=ANY_METHOD)
        from distributed import as_completed

        from .subtrees import Job, find_any

        puzzle = compiled.puzzle
        job = Job(puzzle.source, puzzle.filename, puzzle.given, True, on_kernel(compiled, "any"))
        client, cluster = _connect(self.workers)
        futures: list[Any] = []
        per_worker: dict[str, int] = {}
        result = SearchResult(NO_SOLUTION, visited, method=ANY_METHOD)
        try:
            futures = [
                client.submit(find_any, job, batch, _task_limits(limits, visited), pure=False)
                for batch in _batches(top.roots, client, self.workers)
            ]
            for future in as_completed(futures):
                found = future.result()
                result.states += found.visited
                per_worker[found.worker] = per_worker.get(found.worker, 0) + found.visited
                if found.root is not None:
                    result.status, result.path = SOLVED, _path(compiled, top, found.root, found.states)
                    break
                if found.stopped is not None:
                    result.status, result.limit_reason = LIMIT, found.stopped
                    break
                limits.check(result.states, stored=False)
        except (LimitReached, KeyboardInterrupt) as exc:
            result.status, result.limit_reason = LIMIT, stop_reason(exc)
        except Exception as exc:  # a worker that died, a cluster that went away
            result.status, result.limit_reason = LIMIT, f"the workers stopped: {type(exc).__name__}: {exc}"
        finally:
            client.cancel(futures, force=True)
            client.close()
            if cluster is not None:
                cluster.close()
        self._statistics = {"workers": len(per_worker), "tasks": len(futures), "states_per_worker": per_worker}
        result.seconds = time.monotonic() - started
        return result

    def statistics(self) -> dict[str, object] | None:
        return self._statistics

    def count_goal_states(self, compiled: CompiledPuzzle, limits: Limits, counter: list[int]) -> None:
        visited = [0]
        found = 0
        try:
            for _ in self._walk(compiled, limits, visited, moves=False, counting=True):
                found += 1
        finally:
            counter[0], counter[1] = visited[0], found

    def goal_states(self, compiled: CompiledPuzzle, limits: Limits, visited: list[int], moves: bool) -> Iterator[Path]:
        return self._walk(compiled, limits, visited, moves)

    def _walk(
        self, compiled: CompiledPuzzle, limits: Limits, visited: list[int], moves: bool, counting: bool = False
    ) -> Iterator[Path]:
        """Every goal state once, as found (`counting`: an empty path for each, nothing
        unpacked)."""
        started = time.monotonic()
        size = self.workers.size()
        top = split(compiled, size * TASKS_PER_WORKER, limits)
        visited[0] += len(top.parents) - 1
        kernel = on_kernel(compiled)
        key_of = keys(compiled, kernel)
        seen: set[bytes] = set()  # every goal state found, keyed by key_of
        for goal in top.goals:
            seen.add(key_of(goal))
            yield top.path_to(goal) if moves else [(NO_MOVE, goal)]
        if not top.roots:
            self._statistics = {"workers": 0, "tasks": 0, "split": len(top.parents)}
            return
        yield from self._run(compiled, top, limits, visited, moves, seen, started, counting, kernel, key_of)

    def _run(
        self,
        compiled: CompiledPuzzle,
        top: Split,
        limits: Limits,
        visited: list[int],
        moves: bool,
        seen: set[bytes],
        started: float,
        counting: bool,
        kernel: bool,
        key_of: Any,
    ) -> Iterator[Path]:
        from distributed import as_completed

        from .subtrees import Job, walk_roots

        puzzle = compiled.puzzle
        job = Job(puzzle.source, puzzle.filename, puzzle.given, moves, kernel)
        client, cluster = _connect(self.workers)
        per_worker: dict[str, int] = {}
        memory: dict[str, float] = {}
        counted: set[str] = set()  # the tasks whose states are counted
        futures: list[Any] = []
        tasks = 0
        try:
            futures = [
                client.submit(walk_roots, job, batch, _task_limits(limits, visited[0]), pure=False)
                for batch in _batches(top.roots, client, self.workers)
            ]
            tasks = len(futures)
            for future in as_completed(futures):
                report = future.result()
                counted.add(future.key)
                visited[0] += report.visited
                per_worker[report.worker] = per_worker.get(report.worker, 0) + report.visited
                memory[report.worker] = max(memory.get(report.worker, 0.0), report.memory_mb)
                if report.stopped is not None:
                    limits.trip(_stopped(limits, visited[0], report))
                for root, goal, states in report.goals:
                    key = goal if report.packed else key_of(goal)
                    if key in seen:
                        continue
                    seen.add(key)
                    if moves:
                        yield _path(compiled, top, root, states)
                    elif counting:
                        yield []
                    else:
                        yield [(NO_MOVE, unpacked(compiled, goal) if report.packed else goal)]
                limits.check(visited[0], stored=False, at=f"{len(counted)}/{tasks} subtree tasks done")
        except LimitReached:  # the tasks stop at the same time limit: what they walked is counted
            visited[0] += _settled(futures, counted, per_worker)
            raise
        except KeyboardInterrupt:
            raise
        except Exception as exc:  # a worker that died, a cluster that went away
            raise LimitReached(f"the workers stopped: {type(exc).__name__}: {exc}") from None
        finally:
            self._statistics = {
                "workers": len(per_worker),
                "tasks": tasks,
                "split": len(top.parents),
                "states_per_worker": per_worker,
                "peak_mb_per_worker": {name: round(mb, 1) for name, mb in memory.items()},
                "seconds": round(time.monotonic() - started, 3),
                "where": self.workers.describe(),
            }
            client.cancel([f for f in futures if f.key not in counted], force=True)
            client.close()
            if cluster is not None:
                cluster.close()


def _batches(roots: list[bytes], client: Any, workers: Workers) -> list[list[bytes]]:
    """The roots in about TASKS_PER_WORKER tasks for each worker the cluster has."""
    size = max(1, len(client.scheduler_info().get("workers", {})) or workers.size())
    chunk = max(1, len(roots) // (size * TASKS_PER_WORKER))
    return [roots[i : i + chunk] for i in range(0, len(roots), chunk)]


SETTLE_SECONDS = 2.0  # how long a stopped walk waits for its tasks' own reports


def _settled(futures: list[Any], counted: set[str], per_worker: dict[str, int]) -> int:
    """The states of the tasks that report within SETTLE_SECONDS of a stop (each task stops
    at the run's time limit by itself), so that the report says what was walked."""
    from distributed import wait

    waiting = [f for f in futures if f.key not in counted]
    with contextlib.suppress(Exception):  # a wait that times out, a cluster gone: what came is counted
        wait(waiting, timeout=SETTLE_SECONDS)
    total = 0
    for future in waiting:
        if future.status == "finished":
            report = future.result()
            counted.add(future.key)
            total += report.visited
            per_worker[report.worker] = per_worker.get(report.worker, 0) + report.visited
    return total


def _connect(workers: Workers) -> tuple[Any, Any]:
    """A client of the cluster at the address given, or of a local cluster of processes
    (closed with the walk)."""
    import logging

    from distributed import Client, LocalCluster

    if workers.address:
        try:  # `reach` asked it first: a scheduler that stopped answering since is a stop, said so
            return Client(workers.address, timeout=CONNECT_SECONDS), None
        except Exception as exc:  # an OSError of Dask's, a timeout, a closed stream
            raise LimitReached(f"the cluster at {workers.address} did not answer: {said(exc)}") from None
    cluster = LocalCluster(
        n_workers=workers.size(),
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",  # any free port: never one a running cluster holds
        silence_logs=logging.CRITICAL,  # a worker's complaint as the cluster closes is not the user's
    )
    return Client(cluster), cluster


def _stopped(limits: Limits, visited: int, report: Any) -> str:
    """Why the walk stops where a task stopped: the run's own limit (the states of every
    worker counted together, the run's time or memory), else the task's reason."""
    if limits.max_states is not None and visited >= limits.max_states:
        return state_limit(limits.max_states)
    return limits.exceeded() or f"{report.worker}: {report.stopped}"


def on_kernel(compiled: CompiledPuzzle, mode: str = "all") -> bool:
    """Whether the subtrees are walked on the kernel (decided here, for every worker alike, so
    that every goal state is keyed alike: packed as the kernel packs it, or as itself)."""
    from ..compiled import CompiledEngine

    return CompiledEngine().why_not(compiled, Query.of(compiled, mode=mode)) is None


def keys(compiled: CompiledPuzzle, kernel: bool) -> Any:
    """How a goal state is keyed among those found (the split's and every worker's alike):
    packed as the kernel packs it, where the kernel walks the subtrees; else as itself."""
    if not kernel:
        return lambda state: b"s" + state
    import numpy as np

    from ...kernel.machine.assembly import build

    program = build(compiled).program
    return lambda state: np.array(program.pack(state), dtype=np.uint64).tobytes()


def unpacked(compiled: CompiledPuzzle, packed: bytes) -> bytes:
    from ...kernel.searches.depth import unpacked as kernel_unpacked

    return kernel_unpacked(compiled, packed)


def _task_limits(limits: Limits, visited: int) -> tuple[float | None, int | None]:
    """What a task may take: the run's seconds left, and its states left."""
    seconds = None if limits.timeout is None else max(0.1, limits.timeout - limits.elapsed())
    states = None if limits.max_states is None else max(1, limits.max_states - visited)
    return seconds, states


def _path(compiled: CompiledPuzzle, top: Split, root: bytes, states: list[bytes]) -> Path:
    """The path from the start to a goal: the split's to the root, then the worker's states,
    each step's move found again among the moves of the state before it."""
    return top.path_to(root) + steps(compiled, [root, *states])
