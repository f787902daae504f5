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

import numpy as np

from ...compiler import CompiledPuzzle
from ...search.limits import LimitReached, Limits, stop_reason
from ...search.problem import steps
from ...search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from ..compiling.jit import njit
from ..machine import calls
from ..machine.assembly import build as build_program
from ..machine.machine import unowned, workspace
from ..machine.moves import FAILED as EXPAND_FAILED
from ..machine.moves import FULL
from ..machine.records import WS_ERR
from ..stores.heap import pop, push
from ..tables import core
from ..tables.tables import build as build_tables
from .breadth_first import FIRST_CAPACITY, Arrays, resized

# what a call stopped on
CHECK, GOAL, EMPTY_OPEN, ROOM, OUT_FULL, FAILED = range(6)
# the counters, in one array (DEAD_LINE: the estimate from which a state is not stored, 0: none)
COUNT, HEAP, TIE, BUDGET, POPPED, DEAD_LINE = range(6)


@njit(cache=True)
def run(
    prog: np.ndarray,
    mp: np.ndarray,
    ws: np.ndarray,
    hp: np.ndarray,
    hws: np.ndarray,
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
            pop(heap, c)
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
        pop(heap, c)
        closed[item] = 1
        g = cost[item] + 1
        for j in range(n):
            child = out_states[j]
            slot = core.slot(keys, child)
            if keys[slot] != core.EMPTY:
                other = indices[slot]
                if closed[other] or cost[other] <= g:
                    continue
            calls.put_word(hp, hws, child)
            estimate = calls.call(calls.ESTIMATE, hp, hws)
            if hws[hp[WS_ERR]] != 0:
                return FAILED
            if keys[slot] == core.EMPTY:
                if c[DEAD_LINE] > 0 and estimate >= c[DEAD_LINE]:
                    continue  # no goal can be reached from it: not stored
                keys[slot] = child
                other = c[COUNT]
                indices[slot] = other
                states[other] = child
                c[COUNT] = other + 1
            cost[other] = g
            parents[other] = item
            c[TIE] += 1
            push(heap, c, g + estimate, g, c[TIE], other)
        c[BUDGET] -= n + 1
        if c[BUDGET] <= 0:
            return CHECK
    return EMPTY_OPEN


class _Arrays:
    """The states found with their parents and table (`search.Arrays`), each one's cost so
    far and whether it is closed, and the open list: grown by the driver."""

    def __init__(self, start: int) -> None:
        self.found = Arrays.holding(start)
        self.cost = np.zeros(self.found.capacity, dtype=np.int32)
        self.closed = np.zeros(self.found.capacity, dtype=np.uint8)
        self.heap = np.zeros((FIRST_CAPACITY, 4), dtype=np.int64)

    def grow(self, count: int, room: int, heap: int) -> None:
        self.found.make_room(count, room)
        capacity = self.found.capacity
        self.cost = resized(self.cost, capacity, count)
        self.closed = resized(self.closed, capacity, count)
        if heap + room > len(self.heap):
            self.heap.resize((max(heap + room, 2 * len(self.heap)), 4), refcheck=False)


def astar(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.astar.astar`, on states of one word (wider:
    `kernel.searches.best_first.astar`)."""
    method = "A*, compiled"
    tables = build_tables(compiled)
    estimator = build_program(compiled)  # the estimate, as the machine's bytecode
    hp, hws = estimator.array, workspace(estimator.array)
    ws = tables.workspace()
    arrays = _Arrays(tables.start)
    c = np.zeros(6, dtype=np.int64)
    c[COUNT] = 1
    c[DEAD_LINE] = compiled.dead or 0
    room = tables.most_successors
    out_states, out_moves = np.empty(room, dtype=np.uint64), np.empty(room, dtype=np.int32)
    assert compiled.estimate is not None
    push(arrays.heap, c, compiled.estimate(compiled.start), 0, 0, 0)
    try:
        while True:
            why = run(
                tables.program,
                tables.machine,
                ws,
                hp,
                hws,
                arrays.found.states,
                arrays.cost,
                arrays.found.parents,
                arrays.closed,
                arrays.found.keys,
                arrays.found.indices,
                arrays.heap,
                c,
                np.uint64(tables.goal_mask),
                np.uint64(tables.goal_value),
                out_states,
                out_moves,
            )
            if len(tables.machine) and ws[tables.machine[WS_ERR]]:  # a goal test failed (it reads as no goal)
                why = FAILED
            if why == GOAL:
                path = steps(compiled, arrays.found.chain(int(c[POPPED]), tables.unpack))
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
                if len(tables.machine) and ws[tables.machine[WS_ERR]]:
                    build_program(compiled).raise_recorded(ws)  # in a rule (ws: the moves' workspace)
                estimator.raise_recorded(hws)
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, int(c[COUNT]), limit_reason=stop_reason(exc), method=method)
