"""Breadth-first layers across the workers: `--reach`, the shortest solution and the number
of shortest solutions, on Dask's workers (`engines.workers` connects to them).

The states are shared among the workers by a hash of their packed word
(`kernel.partition.owner`): each worker holds one share, every state of it with its parent,
in its own memory, from one task to the next (`engines.shares`). A layer is made in two
rounds of tasks, one task a share on that share's worker: each share expands its layer and
sorts the children by the share that owns them; then each share takes in the buckets sent
to it (Dask carries each bucket from the worker that made it to its owner's: the driver
sees none of them) and says what its part of the next layer came to: how many states, the
goals among them, their path counts. A solution's path is read back across the shares: the
goal's owner gives its parent, that state's owner its parent, back to the start.

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
from typing import Any

from ..compiler import CompiledPuzzle
from ..errors import SpecError
from ..search import Limits, SearchResult
from ..search.limits import LimitReached, state_limit, stop_reason
from ..search.problem import steps
from ..search.result import LIMIT, NO_SOLUTION, SOLVED
from .base import HandOver
from .query import Query

POLL_SECONDS = 0.5  # between two looks at the limits and the workers while a round runs


def why_not(compiled: CompiledPuzzle, query: Query) -> str | None:
    """Why the workers' layers do not answer this question (None: they do)."""
    from .. import kernel

    if query.mode == "cheapest":
        return "the cheapest solution is searched on one core (the workers' layers count moves)"
    if query.from_goal:
        return "--reach --from-goal runs on one core"
    if not query.layered and query.mode == "shortest" and query.method in ("astar", "idastar"):
        return f"--method {query.method} runs on one core; the workers search breadth first"
    one_word = kernel.why_not(compiled)
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

        closing = [self.on(part, _close, self.run, part) for part in range(self.parts)]
        with contextlib.suppress(Exception):
            wait(closing, timeout=5)


def _close(run: str, part: int) -> None:
    from .shares import close_share

    close_share(run, part)


def search(compiled: CompiledPuzzle, query: Query, limits: Limits, client: Any, where: str) -> SearchResult:
    """The question answered by layers across the cluster's workers (see the module)."""
    from ..kernel.tables import build
    from .shares import absorb_share, expand_share, open_share, pick
    from .subtrees import Job

    started = time.monotonic()
    counting, exhaustive = query.count, query.reach
    shares = Shares(client, limits)
    parts = shares.parts
    method = "layered bfs" + (" with path counts" if counting else "") + f", {parts} workers"
    if not parts:
        return SearchResult(LIMIT, 0, limit_reason=f"{where} has no workers", method=method)
    tables = build(compiled)
    puzzle = compiled.puzzle
    job = Job(puzzle.source, puzzle.filename, puzzle.given, False, True)
    orbits = exhaustive and compiled.symmetry is not None
    start_goal = compiled.is_goal(compiled.start)
    sizes, total, goals, least = [1], 1, int(start_goal), 1
    goal_layer = 0 if start_goal else None
    paths = 1 if start_goal and counting else None
    first_goal: int | None = None  # the reference of the goal the solution ends at
    farthest = tables.start
    stored: dict[str, int] = {}
    memory: dict[str, float] = {}
    busy: dict[str, float] = {}  # seconds each worker expanded and took in
    result = SearchResult(LIMIT, 1, method=method)
    try:
        shares.workers = shares.results(
            [shares.on(p, open_share, job, shares.run, p, parts, counting, orbits) for p in range(parts)], 1, 0
        )
        while sizes[-1] and (exhaustive or goal_layer is None):
            depth = len(sizes)
            budget = (
                None if limits.timeout is None else max(0.1, limits.timeout - limits.elapsed()),
                limits.max_memory_mb,
            )
            expanded = [shares.on(p, expand_share, shares.run, p, budget) for p in range(parts)]
            room = max(0, (limits.stored_cap - total) // parts)
            absorbed = [
                shares.on(
                    q, absorb_share, shares.run, q, room, *[shares.on(p, pick, expanded[p], q) for p in range(parts)]
                )
                for q in range(parts)
            ]
            reports = shares.results(absorbed, total, depth)
            del expanded, absorbed
            if any(a.report.overflow for a in reports):
                raise HandOver("a count of paths past 2**64")
            made = sum(a.report.made for a in reports)
            total += made
            shares.received += sum(a.received for a in reports)
            for part, absorbed_here in enumerate(reports):
                stored[shares.workers[part]] = absorbed_here.report.stored
                name = shares.workers[part]
                memory[name] = max(memory.get(name, 0.0), absorbed_here.report.memory_mb)
                busy[name] = busy.get(name, 0.0) + absorbed_here.seconds + absorbed_here.expanding
            stopped = next((a.stopped for a in reports if a.stopped is not None), None)
            if stopped is not None:
                limits.trip(_reason(limits, stopped))
            if any(a.report.full for a in reports):
                limits.trip(state_limit(limits.stored_cap))
            if made:
                sizes.append(made)
                farthest = next(a.report.first for a in reports if a.report.made)
            else:
                break
            found = [a.report for a in reports if a.report.goals]
            goals += sum(r.goals for r in found)
            least += sum(a.report.least for a in reports)
            if found and goal_layer is None:
                goal_layer, first_goal = depth, found[0].first_goal
                paths = sum(r.goal_ways for r in found) if counting else None
            limits.check(total, at=f"depth {depth}")
        result = SearchResult(NO_SOLUTION if goal_layer is None else SOLVED, total, method=method)
        if goal_layer is not None:
            chain = _chain(shares, first_goal) if first_goal is not None else [tables.start]
            result.path = steps(compiled, [tables.unpack(word) for word in chain], last=counting)
            result.count = paths
        if exhaustive or goal_layer is None:
            result.reachable = total
        if exhaustive:
            result.reachable_goals = goals
            result.layers, result.farthest = sizes, tables.unpack(farthest)
            if orbits:
                result.reachable_up_to_symmetry = least
    except SpecError:
        raise
    except HandOver:
        raise
    except (LimitReached, KeyboardInterrupt) as exc:
        result = SearchResult(LIMIT, total, limit_reason=stop_reason(exc), method=method)
    except Exception as exc:  # a worker that died, a cluster that went away
        result = SearchResult(
            LIMIT, total, limit_reason=f"the workers stopped: {type(exc).__name__}: {exc}", method=method
        )
    finally:
        shares.close()
    result.seconds = time.monotonic() - started
    result.statistics = {
        "workers": parts,
        "layers": len(sizes),
        "states_per_worker": stored,
        "peak_mb_per_worker": {name: round(mb, 1) for name, mb in memory.items()},
        "busy_seconds_per_worker": {name: round(seconds, 1) for name, seconds in busy.items()},
        "sent_between_workers_mb": round(shares.received / 1e6, 1),
        "seconds": round(result.seconds, 3),
        "where": where,
    }
    return result


def _chain(shares: Shares, goal: int | None) -> list[int]:
    """The states from the start to the goal (given by its reference; None: the start),
    each parent read from its share."""
    from ..kernel.partition import share_of
    from .shares import state_in_share

    chain: list[int] = []
    while goal is not None:
        part, number = share_of(goal)
        state, goal = shares.on(part, state_in_share, shares.run, part, number).result()
        chain.append(state)
    return chain[::-1]


def _reason(limits: Limits, stopped: str) -> str:
    """Why the run stops where a worker stopped its expansion: the run's own limit (its time,
    as the driver reads it), else the worker's reason."""
    if stopped == "time limit":
        return limits.exceeded() or f"time limit of {limits.timeout:g} s reached"
    return stopped
