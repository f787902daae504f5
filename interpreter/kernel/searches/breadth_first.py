"""Breadth-first searches run by the compiled kernel: the shortest solution, and the layered
search that counts shortest solutions and reachable states. They answer exactly as the
Python searches in `search.bfs` and `search.layers` do (same states, same counts, the same
solution), and stop at the same limits; the Python side only drives the layers, grows the
arrays and checks the limits between two bounded kernel calls."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...compiler import CompiledPuzzle
from ...compiler.symmetry import Element
from ...errors import Pos
from ...model.puzzle import Symmetry
from ...search.limits import LimitReached, Limits, stop_reason
from ...search.problem import steps
from ...search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from ...search.symmetry import moves_not_mapped, not_closed
from .. import state_bound
from ..machine.records import WS_ERR
from ..tables import core
from ..tables.tables import Tables, build

FIRST_CAPACITY = 1 << 12
DIRECT_BITS = 28  # states of at most this many bits may be found in a bitmap (at most 32 MB),
DIRECT_BYTES = 1 << 20  # if the bitmap takes at most this many bytes
DIRECT_BYTES_A_STATE = 8  # or at most this many for each state the puzzle may have
CALL_BUDGET = 1 << 16  # states generated per kernel call, between two checks of the limits


class NotExact(Exception):
    """The kernel met what it cannot answer exactly, known only once the search runs: a
    value it adds up (a path count, a path's cost) past what its 64-bit words hold, or a
    move of cost 0 while counting the cheapest solutions. The Python engine takes over."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def count_overflow() -> NotExact:
    return NotExact("a count of paths past 2**64")


@dataclass
class Arrays:
    """The states found, in order, with their parent links and path counts, and the hash
    table of the states (with each one's index in `indices` when paths are counted, or
    `indexed`: A* and bidirectional search look states up by index).

    Path counts are kept for the layer being expanded and the next only (`ways` from
    `ways_base` on): older ones are never read again.

    The table holds the states from `window` on. Where every move can be undone, a
    breadth-first search needs only the layer before the one expanded, that layer and the
    next: the states from `needed` on. The older ones are dropped whenever the table fills,
    so that it stays small enough for the processor's cache. Where states have few bits and
    paths are not counted, a bitmap `seen` with a bit for every possible state replaces the
    table."""

    links: bool
    counting: bool
    indexed: bool = False
    window: int = 0
    needed: int = 0
    states: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.uint64))
    keys: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.uint64))
    indices: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int32))
    seen: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.uint64))
    parents: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int32))
    ways: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.uint64))
    ways_base: int = 0

    def make_room(self, count: int, room: int) -> None:
        """Room for `room` more states after the `count` found: the arrays in order grow by a
        quarter; a table that would be more than three quarters full grows by half, or, holding
        states no longer needed, is filled again with those needed, sized for one and a half
        times them (less memory, a refill now and then)."""
        if count + room > self.capacity:
            capacity = max(count + room, self.capacity + self.capacity // 4)
            self.states = resized(self.states, capacity, count)
            if self.links:
                self.parents = resized(self.parents, capacity, count)
        held = count - self.ways_base  # the path counts in use
        if self.counting and held + room > len(self.ways):
            self.ways = resized(self.ways, max(held + room, len(self.ways) + len(self.ways) // 4), held)
        if self.direct or count - self.window + room <= len(self.keys) // 4 * 3:
            return
        if self.needed > self.window:
            size = _table_size(FIRST_CAPACITY, 3 * (count - self.needed) // 2 + room)
        else:
            size = _table_size(max(len(self.keys), FIRST_CAPACITY), count - self.window + room)
        self._fill(count, size, self.needed)

    def forget_ways(self, before: int, count: int) -> None:
        """Drop the path counts of the states before number `before` (the layers done)."""
        held = count - self.ways_base
        start = before - self.ways_base
        self.ways[: held - start] = self.ways[start:held].copy()
        self.ways_base = before

    def use_bitmap(self, bits: int) -> None:
        """Find states in a bitmap of 2**bits bits rather than in the table."""
        self.seen = np.zeros(max(1, (1 << bits) // 64), dtype=np.uint64)
        self.keys = np.empty(0, dtype=np.uint64)

    @property
    def direct(self) -> bool:
        return len(self.seen) > 0

    def hold_all(self, count: int) -> None:
        """Hold every state found in the table (for the checks made after the search)."""
        self.needed = 0
        if self.window:
            self._fill(count, _table_size(FIRST_CAPACITY, count), 0)

    def _fill(self, count: int, size: int, window: int) -> None:
        if size != len(self.keys):
            self.keys = np.empty(size, dtype=np.uint64)
            if self.counting or self.indexed:
                self.indices = np.empty(size, dtype=np.int32)
        self.window = window
        core.rehash(self.keys, self.indices, self.states, window, count)

    @property
    def capacity(self) -> int:
        return len(self.states)

    @classmethod
    def holding(cls, first: int) -> Arrays:
        """Arrays with parent links and indexes, holding one state (number 0, no parent)."""
        arrays = cls(links=True, counting=False, indexed=True)
        arrays.make_room(0, FIRST_CAPACITY)
        core.add(arrays.keys, arrays.indices, arrays.seen, arrays.states, 0, np.uint64(first))
        arrays.parents[0] = core.NO_PARENT
        return arrays

    def chain(self, index: int, unpack: Callable[[int], bytes]) -> list[bytes]:
        """The states from state 0 to state `index`, along the parent links."""
        found = []
        while index != core.NO_PARENT:
            found.append(unpack(int(self.states[index])))
            index = int(self.parents[index])
        found.reverse()
        return found

    def bytes_per_state(self, count: int) -> float:
        arrays = (self.states, self.keys, self.indices, self.seen, self.parents, self.ways)
        return sum(a.nbytes for a in arrays) / max(1, count)


def _table_size(size: int, held: int) -> int:
    """The table size, from `size` grown by half at a time, that holds `held` states at most
    three quarters full (and so at least half full after growing: 11 to 16 bytes a state)."""
    while held > size // 4 * 3:
        size += size // 2
    return size


def resized(array: np.ndarray, capacity: int, count: int) -> np.ndarray:
    """The array with room for `capacity` items, the first `count` kept: grown in place where
    the memory allows (a large block is moved by the system, not copied)."""
    array.resize(capacity, refcheck=False)
    return array


@dataclass
class Walk:
    """Where a layered walk is: the states found, the current layer, what stopped it."""

    tables: Tables
    arrays: Arrays
    compiled: CompiledPuzzle
    workspace: np.ndarray
    undirected: bool = False  # every move can be undone: the table holds three layers
    count: int = 1
    depth: int = 0
    previous: int = 0  # where the layer before the current one starts
    layer: tuple[int, int] = (0, 1)
    goal: int = -1  # the index of the goal state the solution ends at
    generated: int = 0
    room: int = 0  # rows for one state's successors
    budget: int = 0  # the states still to make before the limits are looked at (0: at once)
    out_states: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.uint64))
    out_moves: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int32))

    def __post_init__(self) -> None:
        self.room = self.tables.most_successors
        self.rows_for_successors(self.room)

    def rows_for_successors(self, room: int) -> None:
        """The rows a state's successors are written to, made once for every layer (a walk of
        a million layers of one state each pays for its Python side per layer)."""
        self.room = room
        self.out_states = np.empty(room, dtype=np.uint64)
        self.out_moves = np.empty(room, dtype=np.int32)

    def goal_test(self) -> tuple[np.ndarray, np.ndarray, np.uint64, np.uint64]:
        """What core's goal tests take after the states: the machine program and its workspace,
        the mask and value."""
        tables = self.tables
        return tables.machine, self.workspace, np.uint64(tables.goal_mask), np.uint64(tables.goal_value)

    def raise_error(self) -> None:
        """The error a machine program stopped on, raised as the Python engine raises it."""
        from ..machine.assembly import build as build_program

        build_program(self.compiled).raise_recorded(self.workspace)

    def raise_if_failed(self) -> None:
        """Raise an error the machine recorded in a goal test (core's goal tests read a
        failed test as "not a goal" and go on: the error is looked at here, after each call)."""
        machine = self.tables.machine
        if machine.ndim == 1 and self.workspace[machine[WS_ERR]] != 0:
            self.raise_error()


@dataclass
class Depth:
    """How many states each layer of a walk holds, and where the last one that holds any
    starts (one of the farthest states): `--reach`'s depth, as the layers are made."""

    sizes: list[int] = field(default_factory=lambda: [1])
    last: int = 0

    def add(self, lo: int, hi: int) -> None:
        if hi > lo:
            self.sizes.append(hi - lo)
            self.last = lo


def _start(compiled: CompiledPuzzle, links: bool, counting: bool, origin: bytes | None = None) -> Walk:
    """A walk from the start (or from `origin`)."""
    tables = build(compiled)
    arrays = Arrays(links, counting)
    bits = tables.state_bits
    if not counting and bits <= DIRECT_BITS and _bitmap_pays(compiled, bits):
        arrays.use_bitmap(bits)
    arrays.make_room(0, FIRST_CAPACITY)
    first = tables.start if origin is None else tables.pack(origin)
    core.add(arrays.keys, arrays.indices, arrays.seen, arrays.states, 0, np.uint64(first))
    if links:
        arrays.parents[0] = core.NO_PARENT
    if counting:
        arrays.ways[0] = 1
    return Walk(tables, arrays, compiled, tables.workspace(), undirected=compiled.undirected)


def _bitmap_pays(compiled: CompiledPuzzle, bits: int) -> bool:
    """Whether a bitmap of every state of `bits` bits is small, or small beside the states
    the puzzle may have (a bitmap is found in the cache where a table is not, but it costs
    its whole size however few states there are)."""
    size = (1 << bits) // 8
    return size <= DIRECT_BYTES or size <= DIRECT_BYTES_A_STATE * state_bound(compiled)


NO_SYMMETRY = np.empty((0, 1), dtype=np.uint64)


def _next_layer(walk: Walk, limits: Limits, stop_at_goal: bool, keep: np.ndarray = NO_SYMMETRY) -> bool:
    """Expand the current layer into the next; True if a goal was generated (`stop_at_goal`)."""
    tables, arrays = walk.tables, walk.arrays
    room, out_states, out_moves = walk.room, walk.out_states, walk.out_moves
    lo, hi = walk.layer
    if walk.undirected:
        arrays.needed = walk.previous
    at = lo
    walk.depth += 1
    cap = limits.stored_cap
    while True:
        budget = max(1, min(CALL_BUDGET, cap - walk.count))
        why, walk.count, at, generated, goal = core.run_layer(
            tables.program,
            tables.machine,
            walk.workspace,
            arrays.states,
            arrays.keys,
            arrays.indices,
            arrays.seen,
            arrays.parents,
            arrays.ways,
            arrays.ways_base,
            walk.count,
            arrays.window,
            at,
            hi,
            budget,
            room,
            arrays.links,
            stop_at_goal,
            np.uint64(tables.goal_mask),
            np.uint64(tables.goal_value),
            keep,
            out_states,
            out_moves,
        )
        walk.generated += generated
        if why == core.FAILED:
            walk.raise_error()
        walk.raise_if_failed()
        if why == core.OUT_FULL:  # a state with more successors than thought: room for them
            walk.rows_for_successors(2 * room)
            room, out_states, out_moves = walk.room, walk.out_states, walk.out_moves
            arrays.make_room(walk.count, room)
            continue
        if why == core.NEEDS_ROOM:
            arrays.make_room(walk.count, room)
        elif why == core.COUNT_OVERFLOW:
            raise count_overflow()
        elif why == core.GOAL_FOUND:
            walk.goal = goal
            return True
        if why != core.NEEDS_ROOM:
            walk.budget -= generated + 1
            if why != core.LAYER_DONE or walk.budget <= 0:  # small layers: looked at every CHECK_EVERY states
                walk.budget = limits.check(walk.count, at=f"depth {walk.depth}")
        if why == core.LAYER_DONE:
            walk.previous, walk.layer = lo, (hi, walk.count)
            return False


def _path(compiled: CompiledPuzzle, walk: Walk, index: int, counting: bool) -> list[tuple[int, bytes]]:
    """The solution, from the parent links (the last move that gives each state when paths
    were counted, as Python's layered search records it)."""
    return steps(compiled, walk.arrays.chain(index, walk.tables.unpack), last=counting)


def shortest(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As `search.bfs.shortest`: stop at the first goal generated (states of one word; wider:
    `kernel.searches.wide`)."""
    method = "bfs, compiled"
    if compiled.is_goal(compiled.start):
        return SearchResult(SOLVED, 1, method=method)
    walk = _start(compiled, links=True, counting=False)
    try:
        while walk.layer[0] < walk.layer[1]:
            if _next_layer(walk, limits, stop_at_goal=True):
                return _done(
                    walk, SearchResult(SOLVED, walk.count, path=_path(compiled, walk, walk.goal, False), method=method)
                )
    except (LimitReached, KeyboardInterrupt) as exc:
        return _done(walk, SearchResult(LIMIT, walk.count, limit_reason=stop_reason(exc), method=method))
    return _done(walk, SearchResult(NO_SOLUTION, walk.count, reachable=walk.count, method=method))


def explore(
    compiled: CompiledPuzzle,
    limits: Limits,
    count: bool = False,
    exhaustive: bool = False,
    keep: Element | None = None,
    orbits: bool = False,
    generators: Sequence[tuple[str, Pos, Symmetry]] = (),
) -> SearchResult:
    """As `search.layers.explore`: the layers to the first one holding a goal, with path counts
    (`count`), or every layer (`exhaustive`); only the states a symmetry `keep` leaves
    unchanged; with `orbits`, the reachable states also counted up to the puzzle's symmetries.
    Declared symmetries that could not be checked before the search (`generators`) must map
    the reachable states onto themselves, as in Python. States of one word (wider:
    `kernel.searches.wide`, without symmetries)."""
    method = "layered bfs" + (" with path counts" if count else "") + ", compiled"
    walk = _start(compiled, links=True, counting=count)
    fixed = _image_table(keep, walk.tables.bits) if keep is not None else NO_SYMMETRY
    tables, arrays = walk.tables, walk.arrays
    goal_test = walk.goal_test()
    goal_layer: tuple[int, int] | None = (0, 1) if compiled.is_goal(compiled.start) else None
    paths = _paths(walk, 0, 1) if count and goal_layer is not None else None
    depth = Depth()
    try:
        while walk.layer[0] < walk.layer[1] and (exhaustive or goal_layer is None):
            _next_layer(walk, limits, stop_at_goal=False, keep=fixed)
            lo, hi = walk.layer
            depth.add(lo, hi)
            found = goal_layer is None and core.first_goal(arrays.states, lo, hi, *goal_test) >= 0
            walk.raise_if_failed()
            if found:
                goal_layer = (lo, hi)
                paths = _paths(walk, lo, hi) if count else None
            if count:
                arrays.forget_ways(lo, walk.count)
    except (LimitReached, KeyboardInterrupt) as exc:
        return _done(walk, SearchResult(LIMIT, walk.count, limit_reason=stop_reason(exc), method=method))
    reachable = walk.count if exhaustive or goal_layer is None else None
    goals = int(core.count_goals(arrays.states, walk.count, *goal_test, 0)) if exhaustive else None
    walk.raise_if_failed()
    if reachable is not None and (generators or (orbits and compiled.symmetry is not None)):
        arrays.hold_all(walk.count)
    note = None
    if reachable is not None:
        for name, pos, sym in generators:
            table = _image_table(sym, tables.bits)
            if not core.closed_under(arrays.states, arrays.keys, arrays.seen, walk.count, table):
                note = not_closed(name, pos, "reachable states").reason()
                break
    up_to = None
    if orbits and reachable is not None and compiled.symmetry is not None and note is None:
        group = _group_table(compiled.symmetry.elements[1:], tables.bits)
        up_to = int(core.count_classes(arrays.states, arrays.keys, arrays.seen, walk.count, group))
    path = []
    if goal_layer is not None:
        lo, hi = goal_layer
        first = int(core.first_goal(arrays.states, lo, hi, *goal_test))
        path = _path(compiled, walk, first, count)
    result = SearchResult(
        NO_SOLUTION if goal_layer is None else SOLVED,
        walk.count,
        path=path,
        count=paths,
        reachable=reachable,
        reachable_up_to_symmetry=up_to,
        reachable_goals=goals,
        method=method,
        symmetry_note=note,
    )
    if exhaustive:
        result.layers, result.farthest = depth.sizes, tables.unpack(int(arrays.states[depth.last]))
    return _done(walk, result)


def to_goal(compiled: CompiledPuzzle, limits: Limits) -> SearchResult:
    """As the Python engine's reach from the goal (`search.backward`), for a puzzle whose
    every move is undone by a move: the states that can reach the goal are those the goal
    reaches, layer by layer from it. The start's shortest solution is its chain of parents,
    read backwards (each step back is a move)."""
    method = "layered bfs from the goal, compiled"
    assert compiled.undirected and compiled.goal_state is not None
    walk = _start(compiled, links=True, counting=False, origin=compiled.goal_state)
    depth = Depth()
    try:
        while walk.layer[0] < walk.layer[1]:
            _next_layer(walk, limits, stop_at_goal=False)
            depth.add(*walk.layer)
    except (LimitReached, KeyboardInterrupt) as exc:
        return _done(walk, SearchResult(LIMIT, walk.count, limit_reason=stop_reason(exc), method=method))
    tables, arrays = walk.tables, walk.arrays
    found = np.flatnonzero(arrays.states[: walk.count] == np.uint64(tables.pack(compiled.start)))
    result = SearchResult(NO_SOLUTION, walk.count, reachable=walk.count, method=method, to_goal=True)
    if len(found):
        chain = arrays.chain(int(found[0]), tables.unpack)
        result.status, result.path = SOLVED, steps(compiled, chain[::-1])
    result.layers, result.farthest = depth.sizes, tables.unpack(int(arrays.states[depth.last]))
    return _done(walk, result)


def _paths(walk: Walk, lo: int, hi: int) -> int:
    """The shortest paths to the goal states of the layer lo..hi-1 (its path counts kept)."""
    arrays = walk.arrays
    total, overflow = core.sum_ways(arrays.states, arrays.ways, arrays.ways_base, lo, hi, *walk.goal_test())
    walk.raise_if_failed()
    if overflow:
        raise count_overflow()
    return int(total)


def check_moves(compiled: CompiledPuzzle, limits: Limits, generators: Sequence[tuple[str, Pos, Symmetry]]) -> None:
    """As the Python engine checks symmetries before counting up to them: every reachable
    state's moves map onto its image's moves (else NotASymmetry)."""
    walk = _start(compiled, links=False, counting=False)
    while walk.layer[0] < walk.layer[1]:
        _next_layer(walk, limits, stop_at_goal=False)
    room = walk.room
    mine, theirs = np.empty(room, dtype=np.uint64), np.empty(room, dtype=np.uint64)
    moves = np.empty(room, dtype=np.int32)
    tables = walk.tables
    for name, pos, sym in generators:
        table = _image_table(sym, tables.bits)
        mapped = core.moves_mapped(
            tables.program,
            tables.machine,
            walk.workspace,
            walk.arrays.states,
            walk.count,
            table,
            mine,
            theirs,
            moves,
        )
        if not mapped:
            raise moves_not_mapped(name, pos)


def _image_table(element: Element | Symmetry, bits: int) -> np.ndarray:
    """A symmetry as `core.image` reads it: the state cut into chunks of whole cells (at most
    8 bits each), and for each chunk and each value it may hold, that value's image (cell i's
    content c becomes element.codes[c] in cell element.cells[i]); codes no cell holds map to 0."""
    cells = len(element.cells)
    per_chunk = max(1, 8 // bits)
    values = np.arange(1 << (per_chunk * bits), dtype=np.uint64)
    codes = np.zeros(1 << bits, dtype=np.uint64)
    codes[: len(element.codes)] = element.codes
    chunks = -(-cells // per_chunk)
    table = np.zeros((chunks, len(values)), dtype=np.uint64)
    for cell in range(cells):
        chunk, place = divmod(cell, per_chunk)
        content = (values >> np.uint64(place * bits)) & np.uint64((1 << bits) - 1)
        table[chunk] |= codes[content] << np.uint64(element.cells[cell] * bits)
    return table


def _group_table(elements: Sequence[Element | Symmetry], bits: int) -> np.ndarray:
    """Several symmetries' image tables, one after the other."""
    return np.stack([_image_table(e, bits) for e in elements])


def _done(walk: Walk, result: SearchResult) -> SearchResult:
    result.bytes_per_state = walk.arrays.bytes_per_state(walk.count)
    return result
