"""Bidirectional breadth-first search on the kernel: the search of `search.bidirectional`
(the same states stored, the same meeting, the same solution) on the word tables, forwards
from the start and backwards from the goal (`tables.build(compiled, backward=True)`: the
predecessors in the order expand_back gives them).

Each side keeps its states in order with their parents, and a hash table of their indexes.
As in Python, the side whose frontier is smaller grows by a whole layer; a state new to it
that the other side holds is where they meet (the first one), and the layer is finished
before the solution is made. Each call stops where Python checks the limits.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..compiler import CompiledPuzzle
from ..search.limits import LimitReached, Limits, stop_reason
from ..search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from . import core
from .jit import njit
from .tables import Tables, build

LAYER_DONE, CHECK, ROOM = range(3)
FIRST = 1 << 12


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
    other_keys: np.ndarray,
    c: np.ndarray,
    hi: int,
    out_states: np.ndarray,
    out_moves: np.ndarray,
) -> int:
    """Expand this side's frontier from c[0] up to `hi`, adding new states after c[1]; the
    first new state the other side holds goes to c[2] (it stays once found); c[3] is the
    budget of successors before the limits are checked."""
    room = len(out_states)
    while c[0] < hi:
        if c[1] + room > len(states) or c[1] + room > len(keys) // 4 * 3:
            return ROOM
        at = c[0]
        n = core.successors(states[at], prog, out_states, out_moves)
        for j in range(n):
            child = out_states[j]
            slot = core.slot(keys, child)
            if keys[slot] != core.EMPTY:
                continue
            keys[slot] = child
            indices[slot] = c[1]
            states[c[1]] = child
            parents[c[1]] = at
            if c[2] < 0 and other_keys[core.slot(other_keys, child)] != core.EMPTY:
                c[2] = c[1]
            c[1] += 1
        c[0] = at + 1
        c[3] -= n + 1
        if c[3] <= 0:
            return CHECK
    return LAYER_DONE


class Side:
    """One side of the search: its tables (forwards or backwards), states, parents and table."""

    def __init__(self, tables: Tables, first: int) -> None:
        self.tables = tables
        self.states = np.zeros(FIRST, dtype=np.uint64)
        self.parents = np.full(FIRST, -1, dtype=np.int32)
        self.keys = np.full(2 * FIRST, core.EMPTY, dtype=np.uint64)
        self.indices = np.zeros(2 * FIRST, dtype=np.int32)
        self.states[0] = first
        self.count = 1
        self.layer = (0, 1)
        _insert(self.keys, self.indices, self.states, 0, 1)

    def make_room(self, room: int) -> None:
        if self.count + room > len(self.states):
            size = max(self.count + room, 2 * len(self.states))
            for name in ("states", "parents"):
                array = getattr(self, name)
                grown = np.full(size, -1 if name == "parents" else 0, dtype=array.dtype)
                grown[: len(array)] = array
                setattr(self, name, grown)
        if self.count + room > len(self.keys) // 4 * 3:
            size = 2 * len(self.keys)
            while self.count + room > size // 4 * 3:
                size *= 2
            self.keys = np.full(size, core.EMPTY, dtype=np.uint64)
            self.indices = np.zeros(size, dtype=np.int32)
            _insert(self.keys, self.indices, self.states, 0, self.count)

    def chain(self, index: int) -> list[bytes]:
        """The states from this side's first one to state `index`."""
        found = []
        while index >= 0:
            found.append(self.tables.unpack(int(self.states[index])))
            index = int(self.parents[index])
        found.reverse()
        return found


@njit(cache=True)
def _insert(keys: np.ndarray, indices: np.ndarray, states: np.ndarray, lo: int, hi: int) -> None:
    for i in range(lo, hi):
        at = core.slot(keys, states[i])
        keys[at] = states[i]
        indices[at] = i


def shortest(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.bidirectional.shortest`."""
    method = "bidirectional, compiled"
    if compiled.start == compiled.goal_state:
        return SearchResult(SOLVED, 1, method=method)
    forward_tables = build(compiled)
    backward_tables = build(compiled, backward=True)
    assert compiled.goal_state is not None
    goal = _word(compiled.goal_state, forward_tables)
    forward, backward = Side(forward_tables, forward_tables.start), Side(backward_tables, goal)
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
                why = grow(
                    side.tables.program,
                    side.states,
                    side.parents,
                    side.keys,
                    side.indices,
                    other.keys,
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
                else:
                    break
            if c[2] >= 0:
                meet = side.states[int(c[2])]
                path = _path(compiled, forward.chain(_index(forward, meet)), backward.chain(_index(backward, meet)))
                return SearchResult(SOLVED, forward.count + backward.count, path=path, method=method)
            side.layer = (hi, side.count)
    except (LimitReached, KeyboardInterrupt) as exc:
        return SearchResult(LIMIT, forward.count + backward.count, limit_reason=stop_reason(exc), method=method)
    reachable = forward.count if forward.layer[0] >= forward.layer[1] else None
    return SearchResult(NO_SOLUTION, forward.count + backward.count, reachable=reachable, method=method)


def _word(state: bytes, tables: Tables) -> int:
    return sum(code << (cell * tables.bits) for cell, code in enumerate(state[: tables.cells]))


def _index(side: Side, state: np.uint64) -> int:
    return int(index_of(side.keys, side.indices, state))


def _path(compiled: CompiledPuzzle, to_meet: list[bytes], from_goal: list[bytes]) -> list[tuple[int, bytes]]:
    """The solution through the meeting state: each step forwards to it the first move the
    Python engine's expand gives from the state before to the state after, each step from it
    the first its expand_back gives (the moves each side of its search records)."""
    path = []
    for before, after in itertools.pairwise(to_meet):
        path.append((next(m for child, m in compiled.expand(before) if child == after), after))
    following = from_goal[::-1]
    for before, after in itertools.pairwise(following):
        path.append((next(m for child, m in compiled.expand_back(after) if child == before), after))
    return path
