"""Bidirectional breadth-first search on the kernel: the search of `search.bidirectional`
(the same states stored, the same meeting, the same solution) on the word tables, forwards
from the start and backwards from the goal (`tables.build(compiled, backward=True)`: the
predecessors in the order expand_back gives them).

Each side keeps its states in order with their parents, and a hash table of their indexes.
As in Python, the side whose frontier is smaller grows by a whole layer; a state new to it
that the other side holds is where they meet (the first one), and the layer is finished
before the solution is made. Each call stops where Python checks the limits.

Counting (`count`, as `search.bidirectional.count`), each side also keeps each state's number
of shortest paths from its end, summed as the layer is made (each parent once, however many
moves lead from it to the child); a sum past 64 bits hands the count to Python. The counts of
the states where the layers meet are multiplied in Python, whose integers hold any product.
"""

from __future__ import annotations

import itertools

import numpy as np

from ...compiler import CompiledPuzzle
from ...search.limits import LimitReached, Limits, stop_reason
from ...search.problem import steps
from ...search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from ..compiling.jit import njit
from ..tables import core
from ..tables.tables import Tables, build
from .breadth_first import Arrays, count_overflow

LAYER_DONE, CHECK, ROOM, OVERFLOW = range(4)


@njit(cache=True)
def index_of(keys: np.ndarray, indices: np.ndarray, state: np.uint64) -> int:
    """A state's index on a side, or -1."""
    at = core.slot(keys, state)
    return int(indices[at]) if keys[at] != core.EMPTY else -1


@njit(cache=True)
def grow(
    prog: np.ndarray,
    states: np.ndarray,
    parents: np.ndarray,
    keys: np.ndarray,
    indices: np.ndarray,
    ways: np.ndarray,
    touched: np.ndarray,
    other_keys: np.ndarray,
    c: np.ndarray,
    hi: int,
    out_states: np.ndarray,
    out_moves: np.ndarray,
) -> int:
    """Expand this side's frontier from c[0] up to `hi`, adding new states after c[1]; the
    first new state the other side holds goes to c[2] (it stays once found); c[3] is the
    budget of successors before the limits are checked. Counting (`ways` not empty), each new
    state's paths are the sum of its parents' in the layer before (each parent once:
    `touched` holds the last parent that added to it)."""
    room = len(out_states)
    counting = len(ways) > 0
    while c[0] < hi:
        if c[1] + room > len(states) or c[1] + room > len(keys) // 4 * 3:
            return ROOM
        at = c[0]
        w = ways[at] if counting else np.uint64(0)
        n = core.successors(states[at], prog, out_states, out_moves)
        for j in range(n):
            child = out_states[j]
            slot = core.slot(keys, child)
            if keys[slot] != core.EMPTY:
                if counting:
                    i = indices[slot]
                    if i >= hi and touched[i] != at:  # in the layer being made, not yet from this parent
                        touched[i] = at
                        total = ways[i] + w
                        if total < w:
                            return OVERFLOW
                        ways[i] = total
                continue
            keys[slot] = child
            indices[slot] = c[1]
            states[c[1]] = child
            parents[c[1]] = at
            if counting:
                ways[c[1]] = w
                touched[c[1]] = at
            if c[2] < 0 and other_keys[core.slot(other_keys, child)] != core.EMPTY:
                c[2] = c[1]
            c[1] += 1
        c[0] = at + 1
        c[3] -= n + 1
        if c[3] <= 0:
            return CHECK
    return LAYER_DONE


@njit(cache=True)
def meeting(states: np.ndarray, lo: int, hi: int, other_keys: np.ndarray, other_indices: np.ndarray) -> np.ndarray:
    """The states of this side's layer [lo, hi) that the other side holds: rows of (index
    here, index there)."""
    found = np.empty((hi - lo, 2), dtype=np.int64)
    k = 0
    for i in range(lo, hi):
        at = core.slot(other_keys, states[i])
        if other_keys[at] != core.EMPTY:
            found[k, 0], found[k, 1] = i, other_indices[at]
            k += 1
    return found[:k]


class Side:
    """One side of the search: its tables (forwards or backwards), and its states with
    their parents and table (`search.Arrays`)."""

    def __init__(self, tables: Tables, first: int, counting: bool = False) -> None:
        self.tables = tables
        self.found = Arrays.holding(first)
        self.count = 1
        self.layer = (0, 1)
        # counting: each state's paths from this side's end, and the parent that last added to them
        self.ways = np.ones(self.found.capacity if counting else 0, dtype=np.uint64)
        self.touched = np.full(len(self.ways), -1, dtype=np.int64)

    def make_room(self, room: int) -> None:
        self.found.make_room(self.count, room)
        if len(self.ways):
            capacity = self.found.capacity
            self.ways.resize(capacity, refcheck=False)
            self.touched.resize(capacity, refcheck=False)

    def chain(self, state: np.uint64) -> list[bytes]:
        """The states from this side's first one to `state`."""
        found = self.found
        return found.chain(int(index_of(found.keys, found.indices, state)), self.tables.unpack)


def shortest(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.bidirectional.shortest`."""
    return _search(compiled, limits, counting=False)


def count(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.bidirectional.count`; a path count past 64 bits raises NotExact."""
    return _search(compiled, limits, counting=True)


def _search(compiled: CompiledPuzzle, limits: Limits, counting: bool) -> SearchResult:
    method = "bidirectional" + (" with path counts" if counting else "") + ", compiled"
    if compiled.start == compiled.goal_state:
        return SearchResult(SOLVED, 1, count=1 if counting else None, method=method)
    forward_tables = build(compiled)
    backward_tables = build(compiled, backward=True)
    assert compiled.goal_state is not None
    goal = _word(compiled.goal_state, forward_tables)
    forward = Side(forward_tables, forward_tables.start, counting)
    backward = Side(backward_tables, goal, counting)
    room = max(forward_tables.most_successors, backward_tables.most_successors)
    out_states, out_moves = np.empty(room, dtype=np.uint64), np.empty(room, dtype=np.int32)
    c = np.zeros(4, dtype=np.int64)
    try:
        while forward.layer[0] < forward.layer[1] and backward.layer[0] < backward.layer[1]:
            front, back = forward.layer[1] - forward.layer[0], backward.layer[1] - backward.layer[0]
            side, other = (forward, backward) if front <= back else (backward, forward)
            lo, hi = side.layer
            c[0], c[1], c[2] = lo, side.count, -1
            while True:
                found = side.found
                program = side.tables.program
                why = grow(
                    program,
                    found.states,
                    found.parents,
                    found.keys,
                    found.indices,
                    side.ways,
                    side.touched,
                    other.found.keys,
                    c,
                    hi,
                    out_states,
                    out_moves,
                )
                side.count = int(c[1])
                if why == ROOM:
                    side.make_room(room)
                elif why == CHECK:
                    c[3] = limits.check(forward.count + backward.count)
                elif why == OVERFLOW:
                    raise count_overflow()
                else:
                    break
            if c[2] >= 0:
                meet = side.found.states[int(c[2])]
                path = _path(compiled, forward.chain(meet), backward.chain(meet))
                result = SearchResult(SOLVED, forward.count + backward.count, path=path, method=method)
                if counting:
                    pairs = meeting(side.found.states, hi, side.count, other.found.keys, other.found.indices)
                    result.count = sum(int(side.ways[i]) * int(other.ways[j]) for i, j in pairs)
                return result
            side.layer = (hi, side.count)
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, forward.count + backward.count, limit_reason=stop_reason(exc), method=method)
    reachable = forward.count if forward.layer[0] >= forward.layer[1] else None
    return SearchResult(NO_SOLUTION, forward.count + backward.count, reachable=reachable, method=method)


def _word(state: bytes, tables: Tables) -> int:
    return sum(code << (cell * tables.bits) for cell, code in enumerate(state[: tables.cells]))


def _path(compiled: CompiledPuzzle, to_meet: list[bytes], from_goal: list[bytes]) -> list[tuple[int, bytes]]:
    """The solution through the meeting state: each step forwards to it the move Python's
    forward side records, each step from it the first its expand_back gives (the moves
    its backward side records)."""
    path = steps(compiled, to_meet)
    for before, after in itertools.pairwise(from_goal[::-1]):
        path.append((next(m for child, m in compiled.expand_back(after) if child == before), after))
    return path
