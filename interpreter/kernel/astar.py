"""A* on the kernel: the search of `search.astar.astar` (the same states stored, popped in the
same order, the same solution) run by fixed numba code, the estimate (the spec's
`heuristic`) evaluated as bytecode by the machine (`kernel.machine`) on states of one word.

The states found are kept in order with each one's cost so far, parent and whether it is
closed; a hash table finds a state's index; the open list is a binary heap ordered as
Python's heap of (g + estimate, -g, tie) is, `tie` counting the states pushed. Each call
runs until the limits must be checked (as often as the Python search checks them), the
goal is popped, the open list is empty, or an array needs room.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from ..compiler import CompiledPuzzle
from ..search.limits import LimitReached, Limits, stop_reason
from ..search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from . import core
from .jit import njit
from .machine import WS_ERR, WS_STATE, evaluate, unowned, unpack_word, workspace
from .moves import FAILED as EXPAND_FAILED
from .moves import FULL
from .program import build as build_program
from .tables import build as build_tables

# what a call stopped on
CHECK, GOAL, EMPTY_OPEN, ROOM, OUT_FULL, FAILED = range(6)
# the counters, in one array
COUNT, HEAP, TIE, BUDGET, POPPED = range(5)
FIRST = 1 << 12


@njit(cache=True)
def _push(heap: np.ndarray, c: np.ndarray, f: int, g: int, tie: int, item: int) -> None:
    """Push (f, -g, tie) -> item onto the heap (rows of four integers)."""
    at = c[HEAP]
    c[HEAP] = at + 1
    heap[at, 0], heap[at, 1], heap[at, 2], heap[at, 3] = f, -g, tie, item
    while at > 0:
        up = (at - 1) // 2
        if not _before(heap, at, up):
            break
        for k in range(4):
            heap[at, k], heap[up, k] = heap[up, k], heap[at, k]
        at = up


@njit(cache=True, inline="always")
def _before(heap: np.ndarray, a: int, b: int) -> bool:
    for k in range(3):
        if heap[a, k] != heap[b, k]:
            return bool(heap[a, k] < heap[b, k])
    return False


@njit(cache=True)
def _pop(heap: np.ndarray, c: np.ndarray) -> int:
    """The item of the least entry, taken off the heap."""
    item = heap[0, 3]
    last = c[HEAP] - 1
    c[HEAP] = last
    for k in range(4):
        heap[0, k] = heap[last, k]
    at = 0
    while True:
        left, smallest = 2 * at + 1, at
        if left < last and _before(heap, left, smallest):
            smallest = left
        if left + 1 < last and _before(heap, left + 1, smallest):
            smallest = left + 1
        if smallest == at:
            return int(item)
        for k in range(4):
            heap[at, k], heap[smallest, k] = heap[smallest, k], heap[at, k]
        at = smallest


@njit(cache=True)
def run(
    prog: np.ndarray,
    mp: np.ndarray,
    ws: np.ndarray,
    hp: np.ndarray,
    hws: np.ndarray,
    heuristic: int,
    states: np.ndarray,
    cost: np.ndarray,
    parents: np.ndarray,
    closed: np.ndarray,
    keys: np.ndarray,
    indices: np.ndarray,
    heap: np.ndarray,
    c: np.ndarray,
    goal_mask: np.uint64,
    goal_value: np.uint64,
    out_states: np.ndarray,
    out_moves: np.ndarray,
) -> int:
    """Go on with the search from where the counters say it is; what stopped it (the goal's
    index is then in c[POPPED])."""
    hp, hws = unowned(hp), unowned(hws)
    room = len(out_states)
    while c[HEAP] > 0:
        if c[COUNT] + room > len(states) or c[COUNT] + room > len(keys) // 4 * 3 or c[HEAP] + room > len(heap):
            return ROOM
        item = heap[0, 3]  # the least entry, taken off once its state is expanded
        if closed[item]:
            _pop(heap, c)
            continue
        state = states[item]
        if core.is_goal(state, mp, ws, goal_mask, goal_value):
            c[POPPED] = item
            return GOAL
        n = core.expand_state(state, prog, mp, ws, out_states, out_moves)
        if n == FULL:
            return OUT_FULL
        if n == EXPAND_FAILED:
            return FAILED
        _pop(heap, c)
        closed[item] = 1
        g = cost[item] + 1
        for j in range(n):
            child = out_states[j]
            slot = core.slot(keys, child)
            if keys[slot] != core.EMPTY:
                other = indices[slot]
                if closed[other] or cost[other] <= g:
                    continue
            else:
                keys[slot] = child
                other = c[COUNT]
                indices[slot] = other
                states[other] = child
                c[COUNT] = other + 1
            cost[other] = g
            parents[other] = item
            c[TIE] += 1
            unpack_word(hp, child, hws, hp[WS_STATE])
            estimate = evaluate(hp, hws, hp[WS_STATE], heuristic)
            if hws[hp[WS_ERR]] != 0:
                return FAILED
            _push(heap, c, g + estimate, g, c[TIE], other)
        c[BUDGET] -= n + 1
        if c[BUDGET] <= 0:
            return CHECK
    return EMPTY_OPEN


class _Arrays:
    """The search's arrays, grown by the driver."""

    def __init__(self, start: int) -> None:
        self.states = np.zeros(FIRST, dtype=np.uint64)
        self.cost = np.zeros(FIRST, dtype=np.int32)
        self.parents = np.full(FIRST, -1, dtype=np.int32)
        self.closed = np.zeros(FIRST, dtype=np.uint8)
        self.keys = np.full(2 * FIRST, core.EMPTY, dtype=np.uint64)
        self.indices = np.zeros(2 * FIRST, dtype=np.int32)
        self.heap = np.zeros((FIRST, 4), dtype=np.int64)
        self.states[0] = start
        _refill(self.keys, self.indices, self.states, 1)

    def grow(self, count: int, room: int, heap: int) -> None:
        if count + room > len(self.states):
            size = max(count + room, 2 * len(self.states))
            for name in ("states", "cost", "parents", "closed"):
                array = getattr(self, name)
                grown = np.zeros(size, dtype=array.dtype)
                grown[: len(array)] = array
                setattr(self, name, grown)
        if count + room > len(self.keys) // 4 * 3:
            size = 2 * len(self.keys)
            while count + room > size // 4 * 3:
                size *= 2
            self.keys = np.full(size, core.EMPTY, dtype=np.uint64)
            self.indices = np.zeros(size, dtype=np.int32)
            _refill(self.keys, self.indices, self.states, count)
        if heap + room > len(self.heap):
            grown = np.zeros((max(heap + room, 2 * len(self.heap)), 4), dtype=np.int64)
            grown[: len(self.heap)] = self.heap
            self.heap = grown


@njit(cache=True)
def _refill(keys: np.ndarray, indices: np.ndarray, states: np.ndarray, count: int) -> None:
    for i in range(count):
        slot = core.slot(keys, states[i])
        keys[slot] = states[i]
        indices[slot] = i


def astar(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.astar.astar`."""
    method = "A*, compiled"
    tables = build_tables(compiled)
    estimator = build_program(compiled)  # the estimate, as the machine's bytecode
    hp, hws = estimator.array, workspace(estimator.array)
    ws = tables.workspace()
    arrays = _Arrays(tables.start)
    c = np.zeros(5, dtype=np.int64)
    c[COUNT] = 1
    room = tables.most_successors
    out_states, out_moves = np.empty(room, dtype=np.uint64), np.empty(room, dtype=np.int32)
    assert compiled.estimate is not None
    _push(arrays.heap, c, compiled.estimate(compiled.start), 0, 0, 0)
    try:
        while True:
            why = run(
                tables.program,
                tables.machine,
                ws,
                hp,
                hws,
                estimator.program.heuristic,
                arrays.states,
                arrays.cost,
                arrays.parents,
                arrays.closed,
                arrays.keys,
                arrays.indices,
                arrays.heap,
                c,
                np.uint64(tables.goal_mask),
                np.uint64(tables.goal_value),
                out_states,
                out_moves,
            )
            if why == GOAL:
                path = _path(compiled, tables.unpack, arrays, int(c[POPPED]))
                return SearchResult(SOLVED, int(c[COUNT]), path=path, method=method)
            if why == EMPTY_OPEN:
                count = int(c[COUNT])
                return SearchResult(NO_SOLUTION, count, reachable=count, method=method)
            if why == CHECK:
                c[BUDGET] = limits.check(int(c[COUNT]))
            elif why == ROOM:
                arrays.grow(int(c[COUNT]), room, int(c[HEAP]))
            elif why == OUT_FULL:
                room *= 2
                out_states, out_moves = np.empty(room, dtype=np.uint64), np.empty(room, dtype=np.int32)
            else:  # an error in a rule or the estimate: raised with Python's words
                failed = (tables, ws) if len(tables.machine) and ws[tables.machine[WS_ERR]] else (None, hws)
                program = build_program(compiled) if failed[0] is not None else estimator
                at = int(program.array[WS_ERR])
                program.raise_error(failed[1][at : at + 4])
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, int(c[COUNT]), limit_reason=stop_reason(exc), method=method)


def _path(
    compiled: CompiledPuzzle, unpack: Callable[[int], bytes], arrays: _Arrays, index: int
) -> list[tuple[int, bytes]]:
    """The solution, from the parent links; each move the first the Python engine gives from
    the parent to the child (the one its A* records)."""
    chain = []
    while index >= 0:
        chain.append(unpack(int(arrays.states[index])))
        index = int(arrays.parents[index])
    chain.reverse()
    path = []
    for before, after in itertools.pairwise(chain):
        move = next(move for child, move in compiled.expand(before) if child == after)
        path.append((move, after))
    return path
