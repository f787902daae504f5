"""Best-first searches on the kernel, on a machine program with states of any number of words
(`kernel.stores.rows`): the cheapest solution, the search of `search.cheapest.cheapest`
(uniform cost, or A* with the spec's heuristic; with `count`, the number of cheapest
solutions), each move's cost evaluated as bytecode; and the shortest solution by
`search.astar.astar` for states wider than a word (`kernel.searches.astar` runs those of one
word).

The same states are stored and popped in the same order as in Python: the open list is a
binary heap ordered as Python's heap of (cost + estimate, -cost, tie) is (counting: (cost +
estimate, cost, tie); `search.cheapest` says why), `tie` counting the states pushed; a popped
entry is skipped when its state is closed or was reached more cheaply since. Each call runs
until the limits must be checked (as often as the Python search checks them), the search is
done, the open list is empty, or an array needs room.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ...compiler import CompiledPuzzle
from ...compiler.ranges import KERNEL_BOUND
from ...model.patterns import DEAD
from ...model.pieces import DEAD_PACKED
from ...search.costs import LexCost
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
from ..stores.heap import pop, push
from ..stores.rows import FREE, Rows, find
from .breadth_first import NotExact, count_overflow, resized

# what a call stopped on
CHECK, DONE, EMPTY_OPEN, ROOM, OUT_FULL, FAILED, OVERFLOW, COST_OVERFLOW, ZERO_COST = range(9)
# the counters, in one array (GUARDS: the guard bits of a cost of several parts, kernel.machine.cost_parts;
# DEAD_LINE: the estimate from which a state is not stored, as `search.astar` says; 0: none)
COUNT, HEAP, TIE, BUDGET, HAS_BEST, BEST, FIRST_GOAL, WAYS, LAST_COST, GUARDS, DEAD_LINE = range(11)
FIRST_ROOM = 64  # rows for one state's successors, doubled when a state has more


@njit(cache=True)
def run(
    mp: np.ndarray,
    ws: np.ndarray,
    states: np.ndarray,
    table: np.ndarray,
    cost: np.ndarray,
    parents: np.ndarray,
    closed: np.ndarray,
    heap: np.ndarray,
    c: np.ndarray,
    out: np.ndarray,
    ways: np.ndarray,
    touched: np.ndarray,
    costs: np.ndarray,
    counting: bool,
    estimating: bool,
) -> int:
    """Go on with the search from where the counters say it is; what stopped it. Counting,
    a state's paths are the sum of its cheapest predecessors' (each once, however many moves
    lead from one to it: `touched` holds the state that last added its paths)."""
    room = out.shape[0]
    while c[HEAP] > 0:
        if c[COUNT] + room > len(states) or c[COUNT] + room > len(table) // 4 * 3 or c[HEAP] + room > len(heap):
            return ROOM
        f, item = heap[0, 0], heap[0, 3]
        g = heap[0, 1] if counting else -heap[0, 1]
        if closed[item] or g > cost[item]:
            pop(heap, c)
            continue
        if c[HAS_BEST] == 1 and (f > c[BEST] or not counting):
            return DONE
        calls.put(mp, ws, states[item])
        goal = calls.call(calls.GOAL, mp, ws)
        if goal == EXPAND_FAILED:
            return FAILED
        if goal == 1:
            pop(heap, c)
            closed[item] = 1
            if c[HAS_BEST] == 0:
                c[HAS_BEST], c[BEST], c[FIRST_GOAL] = 1, g, item
            if not counting:
                return DONE
            total = np.uint64(c[WAYS]) + ways[item]
            if total < ways[item]:
                return OVERFLOW
            c[WAYS] = np.int64(total)
            continue
        n = calls.expand_with(calls.EXPAND_COSTED, mp, ws, out, costs)
        if n == FULL:
            return OUT_FULL
        if n == EXPAND_FAILED:
            return FAILED
        pop(heap, c)
        closed[item] = 1
        for j in range(n):
            new = g + costs[j]  # each below KERNEL_BOUND (compiler.ranges): the sum fits a word
            if new >= KERNEL_BOUND or new & c[GUARDS] != 0:  # past the bound, or a part past its field
                return COST_OVERFLOW
            if counting and costs[j] == 0:
                return ZERO_COST  # states of one cost may then lead to each other: counted in Python
            slot = find(table, states, out, j)
            other = table[slot]
            estimate = -1  # not yet evaluated
            if other == FREE:
                if estimating and c[DEAD_LINE] > 0:
                    calls.put(mp, ws, out[j])
                    estimate = calls.call(calls.ESTIMATE, mp, ws)
                    if ws[mp[WS_ERR]] != 0:
                        return FAILED
                    if estimate >= c[DEAD_LINE]:
                        continue  # no goal can be reached from it: not stored
                other = c[COUNT]
                c[COUNT] = other + 1
                table[slot] = other
                for w in range(out.shape[1]):
                    states[other, w] = out[j, w]
                closed[other] = 0
            elif new < cost[other]:
                pass
            else:
                if new == cost[other] and counting and not closed[other] and touched[other] != item:
                    touched[other] = item  # a second move from this state to it: the same solutions
                    total = ways[other] + ways[item]
                    if total < ways[other]:
                        return OVERFLOW
                    ways[other] = total
                continue
            cost[other] = new
            parents[other] = item
            if counting:
                ways[other] = ways[item]
                touched[other] = item
            if not estimating:
                estimate = 0
            elif estimate < 0:
                calls.put(mp, ws, out[j])
                estimate = calls.call(calls.ESTIMATE, mp, ws)
                if ws[mp[WS_ERR]] != 0:
                    return FAILED
            c[TIE] += 1
            push(heap, c, new + estimate, -new if counting else new, c[TIE], other)
        c[LAST_COST] = g
        c[BUDGET] -= n + 1
        if c[BUDGET] <= 0:
            return CHECK
    return EMPTY_OPEN


class _Search:
    """The arrays of one search, grown by the driver."""

    def __init__(self, compiled: CompiledPuzzle, counting: bool) -> None:
        self.machine = build_program(compiled)
        self.ws = workspace(self.machine.array)
        self.rows = Rows(self.machine.words, np.array(self.machine.start, dtype=np.uint64))
        capacity = self.rows.capacity
        self.cost = np.zeros(capacity, dtype=np.int64)
        self.parents = np.full(capacity, -1, dtype=np.int32)
        self.ways = np.zeros(capacity if counting else 0, dtype=np.uint64)
        self.touched = np.full(capacity if counting else 0, -1, dtype=np.int32)
        if counting:
            self.ways[0] = 1
        self.closed = np.zeros(capacity, dtype=np.uint8)
        self.heap = np.zeros((FIRST_ROOM, 4), dtype=np.int64)
        self.out = np.zeros((FIRST_ROOM, self.machine.words), dtype=np.uint64)
        self.costs = np.zeros(FIRST_ROOM, dtype=np.int64)
        self.packing = self.machine.program.cost_packing  # costs of several parts, packed
        # the estimate of a dead state (the one-piece tables', packed where the costs are), 0: none
        self.dead_line = 0 if compiled.dead is None else DEAD_PACKED if self.packing is not None else compiled.dead

    def counters(self) -> np.ndarray:
        """The counters of a new search: the start stored."""
        c = np.zeros(11, dtype=np.int64)
        c[COUNT] = 1
        c[GUARDS] = 0 if self.packing is None else self.packing.guards
        c[DEAD_LINE] = self.dead_line
        return c

    def cost_of(self, packed: int) -> object:
        """A cost as the Python search has it: a number, or its parts (`search.costs.LexCost`)."""
        return packed if self.packing is None else self.packing.unpack(packed)

    def grow(self, count: int, heap: int) -> None:
        room = len(self.out)
        self.rows.make_room(count, room)
        capacity = self.rows.capacity
        self.cost = resized(self.cost, capacity, count)
        self.parents = resized(self.parents, capacity, count)
        self.closed = resized(self.closed, capacity, count)
        if len(self.ways):
            self.ways = resized(self.ways, capacity, count)
            self.touched = resized(self.touched, capacity, count)
        if heap + room > len(self.heap):
            self.heap.resize((max(heap + room, 2 * len(self.heap)), 4), refcheck=False)

    def wider(self) -> None:
        """Room for a state with more successors than the rows hold."""
        room = 2 * len(self.out)
        self.out = np.zeros((room, self.machine.words), dtype=np.uint64)
        self.costs = np.zeros(room, dtype=np.int64)

    def arrays(self, c: np.ndarray) -> Any:
        """What both searches take first: the program and its workspace, the states and
        their table, costs, parents and closed marks, the open list, the counters and the
        rows for a state's successors."""
        rows = self.rows
        return (
            self.machine.array,
            self.ws,
            rows.states,
            rows.table,
            self.cost,
            self.parents,
            self.closed,
            self.heap,
            c,
            self.out,
        )

    def handle(self, why: int, c: np.ndarray, limits: Limits, at: str = "") -> None:
        """What the driver does when a call stops short of the answer."""
        if why == CHECK:
            c[BUDGET] = limits.check(int(c[COUNT]), at=at)
        elif why == ROOM:
            self.grow(int(c[COUNT]), int(c[HEAP]))
        elif why == OUT_FULL:
            self.wider()
        elif why == OVERFLOW:
            raise count_overflow()
        elif why == ZERO_COST:
            raise NotExact("a move of cost 0, met counting the cheapest solutions")
        elif why == COST_OVERFLOW and self.packing is not None:
            raise NotExact(
                f"a part of a path's cost past its field of the kernel's word ({self.packing.field - 1} bits)"
            )
        elif why == COST_OVERFLOW:
            raise NotExact(f"a path's cost past 2**{KERNEL_BOUND.bit_length() - 1}")
        else:
            self.machine.raise_recorded(self.ws)

    def done(self, result: SearchResult) -> SearchResult:
        result.bytes_per_state = self.bytes_per_state(result.states)
        return result

    def path(self, index: int) -> list[bytes]:
        found = []
        while index >= 0:
            found.append(self.machine.unpack(tuple(int(w) for w in self.rows.states[index])))
            index = int(self.parents[index])
        found.reverse()
        return found

    def bytes_per_state(self, count: int) -> float:
        arrays = (self.cost, self.parents, self.ways, self.touched, self.closed, self.heap)
        return (self.rows.nbytes() + sum(a.nbytes for a in arrays)) / max(1, count)


def cheapest(compiled: CompiledPuzzle, limits: Limits, estimate: bool = False, count: bool = False) -> SearchResult:
    """As `search.cheapest.cheapest` with the puzzle's costed moves (and its heuristic, with
    `estimate`); a path count past 2**64, a cost past KERNEL_BOUND or (counting) a move of
    cost 0 raises NotExact (the Python engine takes over)."""
    method = ("A*" if estimate else "uniform cost") + (" with path counts" if count else "") + ", compiled"
    search = _Search(compiled, count)
    c = search.counters()
    first = 0
    if estimate and search.packing is not None and compiled.puzzle.alone is None:
        raise NotExact("a heuristic with costs of several parts")  # only the derived tables estimate each part
    if estimate:
        assert compiled.estimate is not None
        first = _packed(compiled.estimate(compiled.start), search)
    push(search.heap, c, first, 0, 0, 0)
    why = EMPTY_OPEN
    try:
        while True:
            why = run(*search.arrays(c), search.ways, search.touched, search.costs, count, estimate)  # type: ignore[call-arg]
            if why in (DONE, EMPTY_OPEN):
                break
            search.handle(why, c, limits, at=f"cost {search.cost_of(int(c[LAST_COST]))}")
    except (LimitReached, KeyboardInterrupt) as exc:
        return search.done(SearchResult(LIMIT, int(c[COUNT]), limit_reason=stop_reason(exc), method=method))
    states = int(c[COUNT])
    if c[HAS_BEST] == 0:
        result = SearchResult(NO_SOLUTION, states, reachable=states, method=method)
    else:
        path = cheapest_steps(compiled, search.path(int(c[FIRST_GOAL])))
        result = SearchResult(SOLVED, states, path=path, method=method)
        result.cost = search.cost_of(int(c[BEST]))  # type: ignore[assignment]
        if count:
            result.count = int(c[WAYS]) % (1 << 64)  # kept as a signed word
    return search.done(result)


def _packed(estimate: object, search: _Search) -> int:
    """An estimate as the machine gives it: a cost of several parts packed (DEAD_PACKED where
    its first part says dead)."""
    if search.packing is None:
        assert isinstance(estimate, int)
        return estimate
    assert isinstance(estimate, LexCost)
    if search.dead_line and estimate[0] >= DEAD:
        return DEAD_PACKED
    return sum(part << shift for part, shift in zip(estimate, search.packing.shifts, strict=True))


@njit(cache=True)
def run_astar(
    mp: np.ndarray,
    ws: np.ndarray,
    states: np.ndarray,
    table: np.ndarray,
    cost: np.ndarray,
    parents: np.ndarray,
    closed: np.ndarray,
    heap: np.ndarray,
    c: np.ndarray,
    out: np.ndarray,
) -> int:
    """As `kernel.searches.astar.run`, on rows: the heap ordered as Python's (f, -g, tie); a
    popped state already closed is skipped, a goal ends the search when it is popped (its
    index in c[FIRST_GOAL])."""
    room = out.shape[0]
    while c[HEAP] > 0:
        if c[COUNT] + room > len(states) or c[COUNT] + room > len(table) // 4 * 3 or c[HEAP] + room > len(heap):
            return ROOM
        item = heap[0, 3]
        if closed[item]:
            pop(heap, c)
            continue
        calls.put(mp, ws, states[item])
        goal = calls.call(calls.GOAL, mp, ws)
        if goal == EXPAND_FAILED:
            return FAILED
        if goal == 1:
            c[FIRST_GOAL] = item
            return DONE
        n = calls.expand(calls.EXPAND, mp, ws, out)
        if n == FULL:
            return OUT_FULL
        if n == EXPAND_FAILED:
            return FAILED
        pop(heap, c)
        closed[item] = 1
        g = cost[item] + 1
        for j in range(n):
            slot = find(table, states, out, j)
            other = table[slot]
            if other != FREE and (closed[other] or cost[other] <= g):
                continue
            calls.put(mp, ws, out[j])
            estimate = calls.call(calls.ESTIMATE, mp, ws)
            if ws[mp[WS_ERR]] != 0:
                return FAILED
            if other == FREE:
                if c[DEAD_LINE] > 0 and estimate >= c[DEAD_LINE]:
                    continue  # no goal can be reached from it: not stored
                other = c[COUNT]
                c[COUNT] = other + 1
                table[slot] = other
                for w in range(out.shape[1]):
                    states[other, w] = out[j, w]
                closed[other] = 0
            cost[other] = g
            parents[other] = item
            c[TIE] += 1
            push(heap, c, g + estimate, g, c[TIE], other)
        c[BUDGET] -= n + 1
        if c[BUDGET] <= 0:
            return CHECK
    return EMPTY_OPEN


def astar(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.astar.astar`, on states of any number of words."""
    method = "A*, compiled"
    search = _Search(compiled, counting=False)
    c = search.counters()
    assert compiled.estimate is not None
    push(search.heap, c, compiled.estimate(compiled.start), 0, 0, 0)
    try:
        while True:
            why = run_astar(*search.arrays(c))
            if why in (DONE, EMPTY_OPEN):
                break
            search.handle(why, c, limits)
    except (LimitReached, KeyboardInterrupt) as exc:
        return search.done(SearchResult(LIMIT, int(c[COUNT]), limit_reason=stop_reason(exc), method=method))
    states = int(c[COUNT])
    if why == EMPTY_OPEN:
        return search.done(SearchResult(NO_SOLUTION, states, reachable=states, method=method))
    path = steps(compiled, search.path(int(c[FIRST_GOAL])))
    return search.done(SearchResult(SOLVED, states, path=path, method=method))


def cheapest_steps(compiled: CompiledPuzzle, states: list[bytes]) -> list[tuple[int, bytes]]:
    """The moves between these states, as the Python search records them: of the moves from
    one state to the next, the first of the cheapest (a later move replaces the one recorded
    only when it is cheaper)."""
    path = []
    for before, after in itertools.pairwise(states):
        moves = [(cost, move) for child, move, cost in compiled.expand_costed(before) if child == after]
        least = min(cost for cost, _ in moves)
        path.append((next(move for cost, move in moves if cost == least), after))
    return path
