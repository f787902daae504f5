"""`search any` on the kernel: the depth-first search of `search.depth.any_solution` (the same
states met, in the same order, the same solution) run by fixed numba code on a machine
program, on states of any number of words.

Each state's successors are tried in reading order (`CompiledPuzzle.in_reading_order`): the
machine gives each one's order key, and they are sorted by it, equal keys keeping their
order; with a heuristic, they are then sorted by its value, equal values keeping reading
order (`CompiledPuzzle.in_search_order`). Every state met is remembered (a hash set of
rows, `kernel.stores.sets`), as its canonical form when the puzzle's symmetries are checked
(`machine.canonical`), so that a state, or one of its images, is explored once. Each call
returns where the Python search checks the limits, at the goal, when the search is over, or
when an array needs room.
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
from ..machine.records import WS_ERR
from ..stores import sets

# the counters, in one array
DEPTH, SEEN, BUDGET, PHASE, SYMMETRIC, GUIDED = range(6)
# a frame's columns
FIRST, END, NEXT = range(3)
# what stopped a call
FOUND, EXHAUSTED, CHECK, ROOM_KIDS, ROOM_PATH, ROOM_SEEN, FAILED = range(7)
# where a call goes on from
AT_NEXT, ENTER_CHILD, EXPAND_CHILD, EXPAND_START = range(4)


@njit(cache=True)
def run(
    mp: np.ndarray,
    ws: np.ndarray,
    kids: np.ndarray,
    orders: np.ndarray,
    frames: np.ndarray,
    path: np.ndarray,
    seen: np.ndarray,
    key: np.ndarray,
    c: np.ndarray,
) -> int:
    """Go on with the search from where the counters say it is; what stopped it."""
    symmetric = c[SYMMETRIC] == 1
    while True:
        d = c[DEPTH]
        phase = c[PHASE]
        c[PHASE] = AT_NEXT
        if phase == EXPAND_START:
            calls.put(mp, ws, path[0])
            if calls.call(calls.UNPACK, mp, ws) == EXPAND_FAILED:
                return FAILED
            status = _expand(mp, ws, kids, orders, frames, c, -1)
        elif phase == ENTER_CHILD:
            status = _enter(mp, ws, kids, orders, frames, path, c, d)
        elif phase == EXPAND_CHILD:
            status = _expand(mp, ws, kids, orders, frames, c, d)
        else:
            status = -1
            if d < 0:
                return EXHAUSTED
            j = frames[d, NEXT]
            if j >= frames[d, END]:
                c[DEPTH] = d - 1
                continue
            if d + 2 > path.shape[0] or d + 2 > frames.shape[0]:
                return ROOM_PATH
            if sets.full(seen, c[SEEN]):
                return ROOM_SEEN
            frames[d, NEXT] = j + 1
            if symmetric:
                calls.put(mp, ws, kids[j])
                calls.expand(calls.CANONICAL, mp, ws, key)
                found = sets.add(seen, key, 0)
            else:
                found = sets.add(seen, kids, j)
            if not found:
                continue  # met before (or an image of it)
            c[SEEN] += 1
            for w in range(path.shape[1]):
                path[d + 1, w] = kids[j, w]
            c[BUDGET] -= 1
            if c[BUDGET] <= 0:
                c[PHASE] = ENTER_CHILD
                return CHECK
            status = _enter(mp, ws, kids, orders, frames, path, c, d)
        if status >= 0:
            return status


@njit(cache=True, inline="always")
def _enter(
    mp: np.ndarray,
    ws: np.ndarray,
    kids: np.ndarray,
    orders: np.ndarray,
    frames: np.ndarray,
    path: np.ndarray,
    c: np.ndarray,
    d: int,
) -> int:
    """The state at path[d + 1], new: the goal ends the search, any other is expanded."""
    calls.put(mp, ws, path[d + 1])
    goal = calls.call(calls.ENTER, mp, ws)
    if goal == EXPAND_FAILED:
        return FAILED
    if goal == 1:
        c[DEPTH] = d + 1
        return FOUND
    return _expand(mp, ws, kids, orders, frames, c, d)


@njit(cache=True, inline="always")
def _expand(
    mp: np.ndarray, ws: np.ndarray, kids: np.ndarray, orders: np.ndarray, frames: np.ndarray, c: np.ndarray, d: int
) -> int:
    """The successors of the state entered (at depth d + 1), after its caller's in `kids`, in
    reading order."""
    first = frames[d, END] if d >= 0 else 0
    n = calls.expand_with(calls.EXPAND_ENTERED | calls.WITH_ORDERS, mp, ws, kids[first:], orders[first:])
    if n == FULL:
        c[PHASE] = EXPAND_CHILD if d >= 0 else EXPAND_START
        return ROOM_KIDS
    if n == EXPAND_FAILED:
        return FAILED
    _sort(kids, orders, first, first + n)
    if c[GUIDED] == 1:
        for i in range(first, first + n):
            calls.put(mp, ws, kids[i])
            orders[i] = calls.call(calls.ESTIMATE, mp, ws)
            if ws[mp[WS_ERR]] != 0:
                return FAILED
        _sort(kids, orders, first, first + n)
    frames[d + 1, FIRST], frames[d + 1, END], frames[d + 1, NEXT] = first, first + n, first
    c[DEPTH] = d + 1
    return -1


@njit(cache=True, inline="always")
def _sort(kids: np.ndarray, orders: np.ndarray, lo: int, hi: int) -> None:
    """Sort kids[lo:hi] by their order keys, keeping the order of equal keys (an insertion
    sort: a state has few successors)."""
    words = kids.shape[1]
    held = np.empty(words, dtype=np.uint64)
    for i in range(lo + 1, hi):
        key = orders[i]
        if orders[i - 1] <= key:
            continue
        for w in range(words):
            held[w] = kids[i, w]
        j = i - 1
        while j >= lo and orders[j] > key:
            orders[j + 1] = orders[j]
            for w in range(words):
                kids[j + 1, w] = kids[j, w]
            j -= 1
        orders[j + 1] = key
        for w in range(words):
            kids[j + 1, w] = held[w]


class _Search:
    """The arrays of the search, grown as it needs."""

    def __init__(self, compiled: CompiledPuzzle, symmetric: bool, guided: bool) -> None:
        self.machine = machine = build_program(compiled)
        words = machine.words
        self.ws = workspace(machine.array)
        self.kids = np.zeros((1024, words), dtype=np.uint64)
        self.orders = np.zeros(1024, dtype=np.int64)
        self.frames = np.zeros((64, 3), dtype=np.int64)
        self.path = np.zeros((64, words), dtype=np.uint64)
        self.path[0] = machine.start
        self.key = np.zeros((1, words), dtype=np.uint64)
        self.seen = sets.new_set(1 << 12, words)
        self.c = np.zeros(6, dtype=np.int64)
        self.c[SYMMETRIC] = int(symmetric)
        self.c[GUIDED] = int(guided)
        if symmetric:
            _canonical(machine.array, self.ws, self.path, self.key)
            sets.add(self.seen, self.key, 0)
        else:
            sets.add(self.seen, self.path, 0)
        self.c[SEEN] = 1
        self.c[DEPTH], self.c[PHASE] = -1, EXPAND_START

    def run(self) -> int:
        return int(
            run(
                self.machine.array, self.ws, self.kids, self.orders, self.frames, self.path, self.seen, self.key, self.c
            )
        )

    def grow(self, why: int) -> None:
        if why == ROOM_KIDS:
            self.kids = np.concatenate([self.kids, np.zeros_like(self.kids)])
            self.orders = np.concatenate([self.orders, np.zeros_like(self.orders)])
        elif why == ROOM_PATH:
            self.path = np.concatenate([self.path, np.zeros_like(self.path)])
            self.frames = np.concatenate([self.frames, np.zeros_like(self.frames)])
        else:
            self.seen = sets.grown(self.seen)

    def states(self) -> list[bytes]:
        """The states of the path found, from the start."""
        return [self.machine.unpack(tuple(int(w) for w in self.path[d])) for d in range(int(self.c[DEPTH]) + 1)]


@njit(cache=True)
def _canonical(mp: np.ndarray, ws: np.ndarray, rows: np.ndarray, key: np.ndarray) -> None:
    """The canonical form of rows[0] into key[0]."""
    calls.put(mp, ws, rows[0])
    calls.expand(calls.CANONICAL, mp, ws, key)


def any_solution(compiled: CompiledPuzzle, limits: Limits, symmetric: bool) -> SearchResult:
    """As `search.depth.any_solution` with the successors in `CompiledPuzzle.in_search_order`,
    and (`symmetric`) states equal up to the puzzle's checked symmetries explored once."""
    method = "depth first, compiled"
    if compiled.is_goal(compiled.start):
        return SearchResult(SOLVED, 1, method=method)
    search = _Search(compiled, symmetric, guided=compiled.estimate is not None)
    c = search.c
    try:
        while True:
            why = search.run()
            if why in (FOUND, EXHAUSTED):
                break
            if why == CHECK:
                c[BUDGET] = limits.check(int(c[SEEN]), stored=False)  # as in Python: memory bounds it
            elif why == FAILED:
                search.machine.raise_recorded(search.ws)
            else:
                search.grow(why)
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, int(c[SEEN]), limit_reason=stop_reason(exc), method=method)
    states = int(c[SEEN])
    if why == EXHAUSTED:
        return SearchResult(NO_SOLUTION, states, reachable=None if symmetric else states, method=method)
    path = steps(compiled, search.states(), order=compiled.in_search_order)
    return SearchResult(SOLVED, states, path=path, method=method)
