"""Breadth-first searches on the kernel for states wider than a word: the shortest solution
(`search.bfs.shortest`) and the layered search that counts shortest solutions and reachable
states (`search.layers.explore`), with the same states, counts and solution, on a machine
program whose states take several words (Hanoi with many discs, puzzles with many places
or counters). States are rows (`kernel.stores.rows`); breadth first, a layer is a range of
them. States of one word go to `kernel.searches.breadth_first`, whose tables of single words
are faster.
"""

from __future__ import annotations

import numpy as np

from ...compiler import CompiledPuzzle
from ...search.limits import LimitReached, Limits, stop_reason
from ...search.problem import steps
from ...search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from ..compiling.jit import njit
from ..machine import calls
from ..machine.assembly import build as build_program
from ..machine.machine import workspace
from ..machine.moves import FAILED as EXPAND_FAILED
from ..machine.moves import FULL
from ..stores.rows import FREE, Rows, find
from ..tables.core import BUDGET_SPENT, COUNT_OVERFLOW, FAILED, GOAL_FOUND, LAYER_DONE, NEEDS_ROOM, OUT_FULL
from .breadth_first import CALL_BUDGET, Depth, count_overflow, resized

FIRST_ROOM = 64  # rows for one state's successors, doubled when a state has more


@njit(cache=True)
def run_layer(
    mp: np.ndarray,
    ws: np.ndarray,
    states: np.ndarray,
    table: np.ndarray,
    parents: np.ndarray,
    ways: np.ndarray,
    count: int,
    at: int,
    layer_end: int,
    budget: int,
    stop_at_goal: bool,
    out: np.ndarray,
) -> tuple:  # type: ignore[type-arg]
    """Expand the layer's states from `at` (up to `layer_end`), adding new ones after `count`,
    as `core.run_layer` does for states of one word; (why, count, at, generated, goal index)."""
    room = out.shape[0]
    generated = 0
    counting = len(ways) > 0
    while at < layer_end:
        if generated >= budget:
            return BUDGET_SPENT, count, at, generated, -1
        if count + room > len(states) or count + room > len(table) // 4 * 3:
            return NEEDS_ROOM, count, at, generated, -1
        calls.put(mp, ws, states[at])
        n = calls.expand(calls.EXPAND, mp, ws, out)
        if n == FULL:
            return OUT_FULL, count, at, generated, -1
        if n == EXPAND_FAILED:
            return FAILED, count, at, generated, -1
        generated += n + 1
        for j in range(n):
            if counting and _seen_before(out, j):
                continue  # a successor given twice counts once (Python keeps them in a dict)
            slot = find(table, states, out, j)
            index = table[slot]
            if index == FREE:
                table[slot] = count
                for w in range(out.shape[1]):
                    states[count, w] = out[j, w]
                parents[count] = at
                if counting:
                    ways[count] = ways[at]
                count += 1
                if stop_at_goal:
                    calls.put(mp, ws, out[j])
                    goal = calls.call(calls.GOAL, mp, ws)
                    if goal == EXPAND_FAILED:
                        return FAILED, count, at, generated, -1
                    if goal == 1:
                        return GOAL_FOUND, count, at + 1, generated, count - 1
            elif counting and index >= layer_end:
                total = ways[index] + ways[at]
                if total < ways[index]:
                    return COUNT_OVERFLOW, count, at, generated, -1
                ways[index] = total
        at += 1
    return LAYER_DONE, count, at, generated, -1


@njit(cache=True, inline="always")
def _seen_before(out: np.ndarray, j: int) -> bool:
    for k in range(j):
        same = True
        for w in range(out.shape[1]):
            if out[k, w] != out[j, w]:
                same = False
                break
        if same:
            return True
    return False


@njit(cache=True)
def goals_in(mp: np.ndarray, ws: np.ndarray, states: np.ndarray, lo: int, hi: int, ways: np.ndarray) -> tuple:  # type: ignore[type-arg]
    """(the first goal state in lo..hi-1 or -1, how many goals there are, the sum of their
    path counts where `ways` is given, whether that sum overflowed; -2 first: an error)."""
    first, found, total = -1, 0, np.uint64(0)
    for i in range(lo, hi):
        calls.put(mp, ws, states[i])
        goal = calls.call(calls.GOAL, mp, ws)
        if goal == EXPAND_FAILED:
            return -2, found, total, False
        if goal == 1:
            if first < 0:
                first = i
            found += 1
            if len(ways):
                following = total + ways[i]
                if following < total:
                    return first, found, total, True
                total = following
    return first, found, total, False


class _Walk:
    """The states found (rows), their parents and path counts, and the current layer."""

    def __init__(self, compiled: CompiledPuzzle, counting: bool, origin: bytes | None = None) -> None:
        self.compiled = compiled
        self.machine = build_program(compiled)
        self.ws = workspace(self.machine.array)
        first = self.machine.start if origin is None else self.machine.program.pack(origin)
        self.rows = Rows(self.machine.words, np.array(first, dtype=np.uint64))
        self.parents = np.full(self.rows.capacity, -1, dtype=np.int32)
        self.ways = np.zeros(self.rows.capacity if counting else 0, dtype=np.uint64)
        if counting:
            self.ways[0] = 1
        self.out = np.zeros((FIRST_ROOM, self.machine.words), dtype=np.uint64)
        self.count, self.depth, self.layer, self.goal = 1, 0, (0, 1), -1

    def next_layer(self, limits: Limits, stop_at_goal: bool) -> bool:
        """Expand the current layer into the next; True if a goal was generated."""
        lo, hi = self.layer
        at = lo
        self.depth += 1
        cap = limits.stored_cap
        while True:
            budget = max(1, min(CALL_BUDGET, cap - self.count))
            why, self.count, at, _, goal = run_layer(
                self.machine.array,
                self.ws,
                self.rows.states,
                self.rows.table,
                self.parents,
                self.ways,
                self.count,
                at,
                hi,
                budget,
                stop_at_goal,
                self.out,
            )
            if why == FAILED:
                self.raise_error()
            if why == OUT_FULL:
                self.out = np.zeros((2 * len(self.out), self.machine.words), dtype=np.uint64)
                continue
            if why == NEEDS_ROOM:
                self.make_room()
            elif why == COUNT_OVERFLOW:
                raise count_overflow()
            elif why == GOAL_FOUND:
                self.goal = goal
                return True
            if why != NEEDS_ROOM:
                limits.check(self.count, at=f"depth {self.depth}")
            if why == LAYER_DONE:
                self.layer = (hi, self.count)
                return False

    def make_room(self) -> None:
        room = len(self.out)
        self.rows.make_room(self.count, room)
        self.parents = resized(self.parents, self.rows.capacity, self.count)
        if len(self.ways):
            self.ways = resized(self.ways, self.rows.capacity, self.count)

    def goals(self, lo: int, hi: int) -> tuple[int, int, int]:
        """The first goal state in lo..hi-1 (or -1), how many there are, their path counts."""
        first, found, total, overflow = goals_in(self.machine.array, self.ws, self.rows.states, lo, hi, self.ways)
        if first == -2:
            self.raise_error()
        if overflow:
            raise count_overflow()
        return int(first), int(found), int(total)

    def state(self, index: int) -> bytes:
        return self.machine.unpack(tuple(int(w) for w in self.rows.states[index]))

    def chain(self, index: int) -> list[bytes]:
        """The states from state `index` back to state 0, along the parent links."""
        found = []
        while index >= 0:
            found.append(self.state(index))
            index = int(self.parents[index])
        return found

    def path(self, index: int, last: bool) -> list[tuple[int, bytes]]:
        return steps(self.compiled, self.chain(index)[::-1], last=last)

    def raise_error(self) -> None:
        self.machine.raise_recorded(self.ws)

    def done(self, result: SearchResult) -> SearchResult:
        result.bytes_per_state = (self.rows.nbytes() + self.parents.nbytes + self.ways.nbytes) / max(1, self.count)
        return result


def shortest(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.bfs.shortest`: stop at the first goal generated."""
    method = "bfs, compiled"
    if compiled.is_goal(compiled.start):
        return SearchResult(SOLVED, 1, method=method)
    walk = _Walk(compiled, counting=False)
    try:
        while walk.layer[0] < walk.layer[1]:
            if walk.next_layer(limits, stop_at_goal=True):
                path = walk.path(walk.goal, last=False)
                return walk.done(SearchResult(SOLVED, walk.count, path=path, method=method))
    except (LimitReached, KeyboardInterrupt) as exc:
        return walk.done(SearchResult(LIMIT, walk.count, limit_reason=stop_reason(exc), method=method))
    return walk.done(SearchResult(NO_SOLUTION, walk.count, reachable=walk.count, method=method))


def explore(compiled: CompiledPuzzle, limits: Limits, count: bool = False, exhaustive: bool = False) -> SearchResult:
    """As `search.layers.explore` (without symmetry): the layers to the first one holding a
    goal, with path counts (`count`), or every layer (`exhaustive`)."""
    method = "layered bfs" + (" with path counts" if count else "") + ", compiled"
    walk = _Walk(compiled, counting=count)
    goal_layer: tuple[int, int] | None = (0, 1) if compiled.is_goal(compiled.start) else None
    depth = Depth()
    try:
        while walk.layer[0] < walk.layer[1] and (exhaustive or goal_layer is None):
            walk.next_layer(limits, stop_at_goal=False)
            lo, hi = walk.layer
            depth.add(lo, hi)
            if goal_layer is None and walk.goals(lo, hi)[1] > 0:
                goal_layer = (lo, hi)
    except (LimitReached, KeyboardInterrupt) as exc:
        return walk.done(SearchResult(LIMIT, walk.count, limit_reason=stop_reason(exc), method=method))
    reachable = walk.count if exhaustive or goal_layer is None else None
    goals = walk.goals(0, walk.count)[1] if exhaustive else None
    if goal_layer is None:
        result = SearchResult(NO_SOLUTION, walk.count, reachable=reachable, reachable_goals=goals, method=method)
    else:
        first, _, paths = walk.goals(*goal_layer)
        result = SearchResult(
            SOLVED,
            walk.count,
            path=walk.path(first, last=count),
            count=paths if count else None,
            reachable=reachable,
            reachable_goals=goals,
            method=method,
        )
    if exhaustive:
        result.layers, result.farthest = depth.sizes, walk.state(depth.last)
    return walk.done(result)


def to_goal(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `kernel.searches.breadth_first.to_goal`, on states of several words."""
    method = "layered bfs from the goal, compiled"
    assert compiled.undirected and compiled.goal_state is not None
    walk = _Walk(compiled, counting=False, origin=compiled.goal_state)
    depth = Depth()
    try:
        while walk.layer[0] < walk.layer[1]:
            walk.next_layer(limits, stop_at_goal=False)
            depth.add(*walk.layer)
    except (LimitReached, KeyboardInterrupt) as exc:
        return walk.done(SearchResult(LIMIT, walk.count, limit_reason=stop_reason(exc), method=method))
    start = np.array(walk.machine.program.pack(compiled.start), dtype=np.uint64)
    found = np.flatnonzero((walk.rows.states[: walk.count] == start).all(axis=1))
    result = SearchResult(NO_SOLUTION, walk.count, reachable=walk.count, method=method, to_goal=True)
    if len(found):  # its parents lead to the goal: each step back is a move
        result.status, result.path = SOLVED, steps(compiled, walk.chain(int(found[0])))
    result.layers, result.farthest = depth.sizes, walk.state(depth.last)
    return walk.done(result)
