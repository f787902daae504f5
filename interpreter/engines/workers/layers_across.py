"""Breadth-first layers across the workers: `--reach`, the shortest solution and the number
of shortest solutions, on Dask's workers (`engines.workers` connects to them).

The states are shared among the workers by a hash of their packed word
(`kernel.searches.partition.owner`): each worker holds one share in its own memory, from
one task to the next (`engines.shares`). A layer is made in two
rounds of tasks, one task a share on that share's worker: each share expands its layer and
sorts the children by the share that owns them; then each share takes in the buckets sent
to it (Dask carries each bucket from the worker that made it to its owner's: the driver
sees none of them) and says what its part of the next layer came to: how many states, the
goals among them, their path counts. A solution's path is read back across the shares: the
goal's owner gives its parent, that state's owner its parent, back to the start; where every
move is undone by a move no parents are kept (children travel as bare words), and a parent
is found again among the state's successors, in the layer before, by their owners.

The same answers as one core: the layers are the same sets of states (a state is new in a
layer when its owner has not stored it before, and its owner sees every copy of it); the
path counts of a state are the sums over its parents, added by the sender for the parents
it expanded and by the owner across senders. The solution found may be another of the same
length.

Limits: each task is given the seconds left and the memory a worker may take (a worker
stops its expansion when it passes either); the driver watches the time, Ctrl-C and SIGTERM
while it waits, and each share may store its part of the states the state limit leaves. A
worker that dies takes its share with it: the run stops and says so.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...compiler import CompiledPuzzle
from ...errors import SpecError
from ...search import Limits, SearchResult
from ...search.limits import LimitReached, state_limit, stop_reason
from ...search.problem import steps
from ...search.result import LIMIT, NO_SOLUTION, SOLVED
from ..base import HandOver
from ..query import Query

POLL_SECONDS = 0.5  # between two looks at the limits and the workers while a round runs


def why_not(compiled: CompiledPuzzle, query: Query) -> str | None:
    """Why the workers' layers do not answer this question (None: they do)."""
    from ... import kernel

    if query.mode == "cheapest":
        return "the cheapest solution is searched on one core (the workers' layers count moves)"
    if query.from_goal:
        return "--reach --from-goal runs on one core"
    if not query.layered and query.mode == "shortest" and query.method in ("astar", "idastar"):
        return f"--method {query.method} runs on one core; the workers search breadth first"
    one_word = kernel.why_not(compiled)
    if one_word is not None and (not kernel.installed() or kernel.jit_disabled()):
        return f"the workers' layers run on the kernel: {one_word}"
    if one_word is not None:
        return f"the workers' layers hold states of one 64-bit word, as the kernel's tables do: {one_word}"
    group = compiled.symmetry
    if group is not None and query.count:
        return "the shortest solutions are counted up to symmetry on one core"
    if group is not None and query.reach:
        if not group.checked or compiled.layout.size != compiled.cells:
            return (
                "the reachable states are counted up to symmetry on one core, "
                "where the symmetries are checked during the search"
            )
        if any(element.image(compiled.start) != compiled.start for element in group.elements):
            return "the reachable states are counted up to symmetries that move the start on one core"
    return None


class Shares:
    """The run's shares, one on each worker of the cluster (`names`: their addresses), and
    the tasks sent to them."""

    def __init__(self, client: Any, limits: Limits):
        self.client = client
        self.limits = limits
        self.names = sorted(client.scheduler_info()["workers"])
        self.run = uuid.uuid4().hex
        self.workers: list[str] = []  # each share's worker, by its process
        self.received = 0  # bytes sent from one worker to another

    @property
    def parts(self) -> int:
        return len(self.names)

    def on(self, part: int, task: Callable[..., Any], *args: Any) -> Any:
        """The task run on share `part`'s worker, and there only."""
        return self.client.submit(task, *args, workers=[self.names[part]], allow_other_workers=False, pure=False)

    def results(self, futures: list[Any], states: int, depth: int) -> list[Any]:
        """The tasks' results, waited for while the limits and the workers are watched."""
        from distributed import wait

        while True:
            try:
                wait(futures, timeout=POLL_SECONDS)
                return list(self.client.gather(futures))
            except TimeoutError:
                busy = sum(future.status == "pending" for future in futures)
                self.limits.check(states, at=f"depth {depth}, {busy} of {self.parts} workers busy")
                gone = set(self.names) - set(self.client.scheduler_info()["workers"])
                if gone:
                    raise LimitReached(
                        f"the worker at {min(gone)} stopped, and its share of the states with it"
                    ) from None

    def close(self) -> None:
        from distributed import wait

        from .shares import close_share

        closing = [self.on(part, close_share, self.run, part) for part in range(self.parts)]
        with contextlib.suppress(Exception):  # a cluster gone: its workers' memory went with it
            wait(closing, timeout=5)


@dataclass
class Tally:
    """What the layers came to so far: their sizes, the states in all, the goals met, the
    states that are the least of their orbits; the first layer holding a goal, the goal the
    solution ends at (its reference) and the shortest paths to that layer's goals; one of the
    farthest states; and each worker's states, peak memory and seconds busy."""

    sizes: list[int]
    goals: int
    goal_layer: int | None
    paths: int | None
    farthest: int
    total: int = 1
    least: int = 1
    first_goal: int | None = None
    received: int = 0  # bytes sent from one worker to another
    stored: dict[str, int] = field(default_factory=dict)
    memory: dict[str, float] = field(default_factory=dict)
    busy: dict[str, float] = field(default_factory=dict)

    def add(self, reports: list[Any], workers: list[str], counting: bool) -> int:
        """A layer's reports (one a share) added up; the states it holds."""
        made: int = sum(a.report.made for a in reports)
        self.total += made
        self.received += sum(a.received for a in reports)
        for name, absorbed in zip(workers, reports, strict=True):
            self.stored[name] = absorbed.report.stored
            self.memory[name] = max(self.memory.get(name, 0.0), absorbed.report.memory_mb)
            self.busy[name] = self.busy.get(name, 0.0) + absorbed.seconds + absorbed.expanding
        if not made:
            return 0
        self.sizes.append(made)
        self.farthest = next(a.report.first for a in reports if a.report.made)
        found = [a.report for a in reports if a.report.goals]
        self.goals += sum(r.goals for r in found)
        self.least += sum(a.report.least for a in reports)
        if found and self.goal_layer is None:
            self.goal_layer, self.first_goal = len(self.sizes) - 1, found[0].first_goal
            self.paths = sum(r.goal_ways for r in found) if counting else None
        return made


def search(compiled: CompiledPuzzle, query: Query, limits: Limits, client: Any, where: str) -> SearchResult:
    """The question answered by layers across the cluster's workers (see the module)."""
    from ...kernel.tables.tables import build
    from .shares import open_share
    from .subtrees import Job

    started = time.monotonic()
    shares = Shares(client, limits)
    method = "layered bfs" + (" with path counts" if query.count else "") + f", {shares.parts} workers"
    if not shares.parts:
        return SearchResult(LIMIT, 0, limit_reason=f"{where} has no workers", method=method)
    tables = build(compiled)
    puzzle = compiled.puzzle
    job = Job(puzzle.source, puzzle.filename, puzzle.given, False, True)
    orbits = query.reach and compiled.symmetry is not None
    at_goal = compiled.is_goal(compiled.start)
    tally = Tally([1], int(at_goal), 0 if at_goal else None, 1 if at_goal and query.count else None, tables.start)
    result = SearchResult(LIMIT, 1, method=method)
    try:
        opened = [
            shares.on(p, open_share, job, shares.run, p, shares.parts, query.count, orbits) for p in range(shares.parts)
        ]
        shares.workers = shares.results(opened, 1, 0)
        while query.reach or tally.goal_layer is None:
            reports = _layer(shares, limits, tally.total, len(tally.sizes))
            if any(a.report.overflow for a in reports):
                raise HandOver("a count of paths past 2**64")
            made = tally.add(reports, shares.workers, query.count)
            stopped = next((a.stopped for a in reports if a.stopped is not None), None)
            if stopped is not None:
                limits.trip(_reason(limits, stopped))
            if any(a.report.full for a in reports):
                limits.trip(state_limit(limits.stored_cap))
            if not made:
                break
            limits.check(tally.total, at=f"depth {len(tally.sizes) - 1}")
        result = _answer(compiled, query, tally, shares, method)
    except (SpecError, HandOver):
        raise
    except (LimitReached, KeyboardInterrupt) as exc:
        result = SearchResult(LIMIT, tally.total, limit_reason=stop_reason(exc), method=method)
    except Exception as exc:  # a worker that died, a cluster that went away
        why = f"the workers stopped: {type(exc).__name__}: {exc}"
        result = SearchResult(LIMIT, tally.total, limit_reason=why, method=method)
    finally:
        shares.close()
    result.seconds = time.monotonic() - started
    result.statistics = {
        "workers": shares.parts,
        "layers": len(tally.sizes),
        "states_per_worker": tally.stored,
        "peak_mb_per_worker": {name: round(mb, 1) for name, mb in tally.memory.items()},
        "busy_seconds_per_worker": {name: round(seconds, 1) for name, seconds in tally.busy.items()},
        "sent_between_workers_mb": round(tally.received / 1e6, 1),
        "seconds": round(result.seconds, 3),
        "where": where,
    }
    return result


def _layer(shares: Shares, limits: Limits, total: int, depth: int) -> list[Any]:
    """The next layer, made by two rounds of tasks: each share expands its layer (within the
    time and memory left), each bucket is picked where it was made and sent to its owner,
    which takes in its buckets (at most its part of the states the state limit leaves)."""
    from .shares import absorb_share, expand_share, pick

    seconds = None if limits.timeout is None else max(0.1, limits.timeout - limits.elapsed())
    parts = range(shares.parts)
    expanded = [shares.on(p, expand_share, shares.run, p, (seconds, limits.max_memory_mb)) for p in parts]
    room = max(0, (limits.stored_cap - total) // shares.parts)
    absorbed = [
        shares.on(q, absorb_share, shares.run, q, room, *[shares.on(p, pick, expanded[p], q) for p in parts])
        for q in parts
    ]
    return shares.results(absorbed, total, depth)


def _answer(compiled: CompiledPuzzle, query: Query, tally: Tally, shares: Shares, method: str) -> SearchResult:
    """The result, as the one-core search gives it: the solution read back across the shares."""
    from ...kernel.tables.tables import build

    tables = build(compiled)
    result = SearchResult(NO_SOLUTION if tally.goal_layer is None else SOLVED, tally.total, method=method)
    if tally.goal_layer is not None:
        chain = _chain(shares, compiled, tally.first_goal, tally.goal_layer)
        result.path = steps(compiled, [tables.unpack(word) for word in chain or [tables.start]], last=query.count)
        result.count = tally.paths
    if query.reach or tally.goal_layer is None:
        result.reachable = tally.total
    if query.reach:
        result.reachable_goals = tally.goals
        result.layers, result.farthest = tally.sizes, tables.unpack(tally.farthest)
        if compiled.symmetry is not None:
            result.reachable_up_to_symmetry = tally.least
    return result


def _chain(shares: Shares, compiled: CompiledPuzzle, goal: int | None, depth: int) -> list[int]:
    """The states from the start to the goal (given by its reference, `depth` moves from the
    start; None: the start), as packed words: each parent read from its share, or, where the
    shares keep no parents (every move undone by a move), found again among the state's
    successors in the layer before."""
    from ...kernel.searches.partition import share_of
    from .shares import state_in_share

    chain: list[int] = []
    while goal is not None:
        part, number = share_of(goal)
        state, goal = shares.on(part, state_in_share, shares.run, part, number).result()
        chain.append(state)
    if chain and compiled.undirected:
        chain += _back_to_start(shares, compiled, chain[0], depth)
    return chain[::-1]


def _back_to_start(shares: Shares, compiled: CompiledPuzzle, state: int, depth: int) -> list[int]:
    """A parent of the state in each layer before its own, back to the start: one of its
    successors in the layer before (every move is undone by a move), asked of their owners."""
    from ...kernel.searches.partition import owner
    from ...kernel.tables.tables import build
    from .shares import in_layer_of_share

    tables = build(compiled)
    chain = []
    for layer in range(depth - 1, -1, -1):
        asked: dict[int, list[int]] = {}
        for child, _ in compiled.expand(tables.unpack(state)):
            word = tables.pack(child)
            asked.setdefault(owner(np.uint64(word), shares.parts), []).append(word)
        futures = [shares.on(part, in_layer_of_share, shares.run, part, layer, words) for part, words in asked.items()]
        state = next(found for found in shares.client.gather(futures) if found is not None)
        chain.append(state)
    return chain


def _reason(limits: Limits, stopped: str) -> str:
    """Why the run stops where a worker stopped its expansion: the run's own limit (its time,
    as the driver reads it), else the worker's reason."""
    if stopped == "time limit":
        return limits.exceeded() or f"time limit of {limits.timeout:g} s reached"
    return stopped
