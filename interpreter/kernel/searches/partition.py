"""One share of a breadth-first search spread over several workers (`engines.workers.layers_across`),
in numba: the states whose hash gives this share (`owner`), stored in the order found, each
with a reference to its parent (its share and its number there), and a hash table of them.

A layer is made in two steps. Each share expands its layer (`expand`): each child goes to
the bucket of the share that owns it, with its parent's reference (and the parent's path
count, where paths are counted); a child this share sent a moment before is not sent again
(a small cache of the children sent: most copies of a state come from nearby parents).
Each share then takes in what every share sent it (`absorb`): the children it has not
stored are its part of the next layer; where paths are counted, the counts of a state's
copies are added up. A state's parent is read from its share by its number (`at`), so that
a path is read back across the shares.

As on one core (`kernel.searches.breadth_first`), the table is the hash table of
`kernel.tables.core` (linear probing, at most three quarters full, each probe's slot read
ahead for a batch of states), and where every move can be undone it holds only the layers a
new state may repeat: the one expanded, the one before and the next.

States are one 64-bit word, as `kernel.tables.core` runs them (its tables or its machine),
packed by `kernel.tables`; a free slot is all ones, which no state is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import uint64

from ...compiler import CompiledPuzzle
from ..compiling.jit import njit
from ..machine.moves import FAILED as MACHINE_FAILED
from ..machine.records import WS_ERR
from ..tables import core

EMPTY = core.EMPTY
NO_PARENT = EMPTY
SHARE_SHIFT = 40  # a parent's reference: its share << SHARE_SHIFT | its number in that share
RECENT = 1 << 22  # the cache of children sent (a power of two)
BATCH = 64  # states whose home slots are read ahead together
# what a call stopped on
DONE, NEEDS_ROOM, OUT_FULL, COUNT_OVERFLOW, FAILED, FULL = range(6)


@njit(cache=True, inline="always")
def _owner(h: np.uint64, parts: int) -> int:
    """The share of a state whose hash is h: the low half of the hash, scaled (the table's
    home slot takes the top half, so that a share's states still fill its whole table)."""
    return int(((h & uint64(0xFFFFFFFF)) * uint64(parts)) >> uint64(32))


@njit(cache=True)
def owner(state: np.uint64, parts: int) -> int:
    return _owner(core._hash(state), parts)


@njit(cache=True)
def expand(
    prog: np.ndarray,
    mp: np.ndarray,
    ws: np.ndarray,
    states: np.ndarray,
    layer_ways: np.ndarray,
    lo: int,
    at: int,
    end: int,
    share: int,
    out_states: np.ndarray,
    out_moves: np.ndarray,
    recent: np.ndarray,
    children: np.ndarray,
    refs: np.ndarray,
    ways: np.ndarray,
    counts: np.ndarray,
) -> tuple:  # type: ignore[type-arg]
    """The children of states[at:end] (the layer starts at `lo`), each put in the bucket of
    its owner: row q of `children` (with its parent's reference in `refs`, where parents are
    kept, and, where paths
    are counted, the parent's count from `layer_ways` in `ways`), after the counts[q] there.
    Without path counts, a child found in `recent` (the children sent lately) is not sent
    again. Stops when the layer's part is done, when a bucket may not hold one more state's
    successors (NEEDS_ROOM), when a state has more successors than `out_states` holds
    (OUT_FULL), or when the machine fails. Returns (why, at)."""
    counting = len(layer_ways) > 0
    links = refs.shape[1] > 0
    parts = children.shape[0]
    room = len(out_states)
    mask = uint64(len(recent) - 1)
    base = uint64(share) << uint64(SHARE_SHIFT)
    while at < end:
        for q in range(parts):
            if counts[q] + room > children.shape[1]:
                return NEEDS_ROOM, at
        n = core.expand_state(states[at], prog, mp, ws, out_states, out_moves)
        if n < 0:
            return (FAILED if n == MACHINE_FAILED else OUT_FULL), at
        if counting:
            n = core._distinct(out_states, out_moves, n)
        ref = base | uint64(at)
        for j in range(n):
            child = out_states[j]
            h = core._hash(child)
            if not counting:
                r = (h >> uint64(32)) & mask
                if recent[r] == child:
                    continue
                recent[r] = child
            q = _owner(h, parts)
            k = counts[q]
            children[q, k] = child
            if links:
                refs[q, k] = ref
            if counting:
                ways[q, k] = layer_ways[at - lo]
            counts[q] = k + 1
        at += 1
    return DONE, at


@njit(cache=True)
def absorb(
    keys: np.ndarray,
    indices: np.ndarray,
    states: np.ndarray,
    parents: np.ndarray,
    stored: int,
    window: int,
    layer_start: int,
    children: np.ndarray,
    refs: np.ndarray,
    ways: np.ndarray,
    following_ways: np.ndarray,
    at: int,
    room: int,
    homes: np.ndarray,
) -> tuple:  # type: ignore[type-arg]
    """Take in children sent to this share, from children[at] on: each not in the table is
    stored as state number `stored` with its parent's reference (and, where paths are
    counted, its count in `following_ways`, from the layer's start, and its number in
    `indices`); one stored in this layer already (numbered from `layer_start` on) has the
    count added. The table holds the states from `window` on. At most `room` states are
    stored (the run's state limit). Stops when all are in (DONE), when the states or the
    table need room (NEEDS_ROOM), at the room (FULL), or when a count passes 64 bits.
    Returns (why, at, stored)."""
    counting = len(indices) > 0
    links = len(refs) > 0
    most = len(keys) // 4 * 3
    n = len(children)
    while at < n:
        m = min(BATCH, n - at)
        if stored + m > len(states) or stored - window + m > most:
            return NEEDS_ROOM, at, stored
        core._touch(keys, children[at:], homes, m)
        for k in range(m):
            child = children[at + k]
            slot = core._slot_from(keys, child, homes[k])
            if keys[slot] == EMPTY:
                if room <= 0:
                    return FULL, at + k, stored
                room -= 1
                keys[slot] = child
                states[stored] = child
                if links:
                    parents[stored] = refs[at + k]
                if counting:
                    indices[slot] = stored
                    following_ways[stored - layer_start] = ways[at + k]
                stored += 1
            elif counting and indices[slot] >= layer_start:
                index = indices[slot] - layer_start
                total = following_ways[index] + ways[at + k]
                if total < following_ways[index]:
                    return COUNT_OVERFLOW, at + k, stored
                following_ways[index] = total
        at += m
    return DONE, at, stored


@njit(cache=True)
def first_in(states: np.ndarray, lo: int, hi: int, wanted: np.ndarray) -> int:
    """The number of the first of states[lo:hi] that is one of the few `wanted` (-1: none)."""
    for i in range(lo, hi):
        for w in range(len(wanted)):
            if states[i] == wanted[w]:
                return i
    return -1


@njit(cache=True)
def least_of_orbits(states: np.ndarray, lo: int, hi: int, group: np.ndarray) -> int:
    """How many of states[lo:hi] are the least of their images under the group (one `image`
    table per element): each class counted once, where the group maps the reachable states
    onto themselves."""
    least = 0
    for i in range(lo, hi):
        state = states[i]
        smallest = True
        for e in range(group.shape[0]):
            if core.image(state, group[e]) < state:
                smallest = False
                break
        if smallest:
            least += 1
    return least


FIRST_ROOM = 1 << 12


@dataclass
class LayerReport:
    """What a share's part of a layer came to: the states it took in (`made`), the goals among
    them (how many, the first's reference, their path counts), the part's first state, how
    many are the least of their orbits, the share's states in all and its process's peak
    memory; whether a path count passed 64 bits, and whether the share's room for states
    was filled before the layer was."""

    made: int = 0
    goals: int = 0
    first_goal: int | None = None
    goal_ways: int = 0
    first: int | None = None
    least: int = 0
    stored: int = 0
    memory_mb: float = 0.0
    overflow: bool = False
    full: bool = False


Bucket = tuple[np.ndarray, np.ndarray, np.ndarray]  # children, their parents' references, path counts


class Share:
    """One share's states and its layer, in arrays grown as they need; the worker side of a
    breadth-first search spread over several workers."""

    def __init__(self, compiled: CompiledPuzzle, part: int, parts: int, counting: bool, orbits: bool):
        from ..tables.tables import build
        from .breadth_first import _group_table

        self.compiled = compiled
        self.tables = build(compiled)
        self.ws = self.tables.workspace()
        self.part, self.parts, self.counting = part, parts, counting
        symmetry = compiled.symmetry
        self.group = _group_table(symmetry.elements[1:], self.tables.bits) if orbits and symmetry else None
        self.undirected = compiled.undirected
        self.keys = _empty_table(FIRST_ROOM)
        self.indices = np.empty(FIRST_ROOM if counting else 0, dtype=np.int64)
        self.states = np.empty(FIRST_ROOM, dtype=np.uint64)
        self.links = not self.undirected  # else a parent is found again among a state's successors
        self.parents = np.empty(FIRST_ROOM if self.links else 0, dtype=np.uint64)
        self.layers: list[tuple[int, int]] = []  # where each layer of this share starts and ends
        self.stored = 0
        self.window = 0  # the table holds the states from this one on
        self.previous = 0  # where the layer before the current one starts
        self.layer = (0, 0)
        self.layer_ways = np.empty(0, dtype=np.uint64)
        self.room = self.tables.most_successors
        self.sent_a_state = 4.0  # children sent for each state expanded (the last layer's)
        self.recent = np.full(RECENT, EMPTY, dtype=np.uint64)
        self.homes = np.empty(BATCH + 1, dtype=np.uint64)
        start = np.uint64(self.tables.start)
        if owner(start, parts) == part:  # the start is this share's: its first layer
            self.absorb([(np.array([start]), np.array([NO_PARENT]), np.ones(1, dtype=np.uint64))], 1)
        else:
            self.layers.append((0, 0))

    def expand(self, stop: Callable[[], str | None]) -> tuple[list[Bucket], str | None]:
        """The layer's children, in one bucket for each share (the one sent there), and the
        reason `stop` gave to stop early (it is asked between two calls of the kernel)."""
        lo, hi = self.layer
        guess = int((hi - lo) * self.sent_a_state / self.parts * 1.1) + self.room + FIRST_ROOM
        children = np.empty((self.parts, guess), dtype=np.uint64)
        refs = np.empty((self.parts, guess if self.links else 0), dtype=np.uint64)
        ways = np.empty((self.parts, guess if self.counting else 0), dtype=np.uint64)
        counts = np.zeros(self.parts, dtype=np.int64)
        out_states = np.empty(self.room, dtype=np.uint64)
        out_moves = np.empty(self.room, dtype=np.int32)
        layer_ways = self.layer_ways if self.counting else np.empty(0, dtype=np.uint64)
        at, stopped = lo, None
        while at < hi and stopped is None:
            why, at = expand(
                self.tables.program,
                self.tables.machine,
                self.ws,
                self.states,
                layer_ways,
                lo,
                at,
                min(hi, at + (1 << 20)),  # a return now and then, to ask `stop`
                self.part,
                out_states,
                out_moves,
                self.recent,
                children,
                refs,
                ways,
                counts,
            )
            if why == FAILED:
                self._raise_recorded()
            elif why == OUT_FULL:
                self.room *= 2
                out_states = np.empty(self.room, dtype=np.uint64)
                out_moves = np.empty(self.room, dtype=np.int32)
            elif why == NEEDS_ROOM:
                wider = children.shape[1] + children.shape[1] // 2 + self.room
                children = _wider(children, wider, counts)
                if self.links:
                    refs = _wider(refs, wider, counts)
                if self.counting:
                    ways = _wider(ways, wider, counts)
            stopped = stop()
        self._raise_if_failed()
        self.sent_a_state = max(1.0, int(counts.sum()) / max(1, at - lo))
        buckets = [
            (
                children[q, : counts[q]],
                refs[q, : counts[q]] if self.links else refs[q],
                ways[q, : counts[q]] if self.counting else ways[q],
            )
            for q in range(self.parts)
        ]
        return buckets, stopped

    def absorb(self, buckets: Sequence[Bucket], room: int) -> LayerReport:
        """Take in the children the shares sent here (at most `room` new states): the next
        layer, and what it came to."""
        lo, _hi = self.layer
        before = self.stored
        incoming = sum(len(children) for children, _, _ in buckets)
        following_ways = np.empty(incoming if self.counting else 0, dtype=np.uint64)
        report = LayerReport()
        for children, refs, ways in buckets:
            at = 0
            while True:
                why, at, self.stored = absorb(
                    self.keys,
                    self.indices,
                    self.states,
                    self.parents,
                    self.stored,
                    self.window,
                    before,
                    children,
                    refs,
                    ways,
                    following_ways,
                    at,
                    room - (self.stored - before),
                    self.homes,
                )
                if why != NEEDS_ROOM:
                    break
                self._make_room()
            report.overflow = report.overflow or why == COUNT_OVERFLOW
            report.full = report.full or why == FULL
            if why != DONE:
                break
        self.previous, self.layer = lo, (before, self.stored)
        self.layers.append(self.layer)
        self.layer_ways = following_ways[: self.stored - before]
        report.made, report.stored = self.stored - before, self.stored
        if report.made:
            self._figures(report, before)
        return report

    def _figures(self, report: LayerReport, lo: int) -> None:
        """The layer's first state, its goals and their path counts, its least of orbits."""
        tables, hi = self.tables, self.stored
        test = (tables.machine, self.ws, np.uint64(tables.goal_mask), np.uint64(tables.goal_value))
        report.first = int(self.states[lo])
        report.goals = int(core.count_goals(self.states, hi, *test, lo))
        if report.goals:
            first = int(core.first_goal(self.states, lo, hi, *test))
            report.first_goal = self.part << SHARE_SHIFT | first
            if self.counting:
                total, overflow = core.sum_ways(self.states, self.layer_ways, lo, lo, hi, *test)
                report.goal_ways, report.overflow = int(total), report.overflow or bool(overflow)
        self._raise_if_failed()
        if self.group is not None:
            report.least = int(least_of_orbits(self.states, lo, hi, self.group))

    def at(self, number: int) -> tuple[int, int | None]:
        """State number `number` of this share, and its parent's reference (None: the start,
        or parents are not kept)."""
        parent = int(self.parents[number]) if self.links else None
        return int(self.states[number]), None if parent == int(NO_PARENT) else parent

    def in_layer(self, depth: int, states: list[int]) -> int | None:
        """The first of these states of this share that is in layer `depth` (None: none is):
        a parent found again, where parents are not kept."""
        if depth >= len(self.layers):
            return None
        lo, hi = self.layers[depth]
        found = first_in(self.states, lo, hi, np.array(states, dtype=np.uint64))
        return None if found < 0 else int(self.states[found])

    def _make_room(self) -> None:
        """Room for a batch more states: the arrays grow by half; a table three quarters full
        grows by half or, where it holds states no new one can repeat (moves that can all be
        undone: those before the layer before the one expanded), is filled again with the
        others."""
        if self.stored + BATCH > len(self.states):
            capacity = len(self.states) + len(self.states) // 2 + BATCH
            self.states.resize(capacity, refcheck=False)
            if self.links:
                self.parents.resize(capacity, refcheck=False)
        if self.stored - self.window + BATCH <= len(self.keys) // 4 * 3:
            return
        needed = self.previous if self.undirected else 0
        held = self.stored - needed + BATCH
        size = FIRST_ROOM if needed > self.window else len(self.keys)
        while held > size // 4 * 3 or (needed > self.window and held > size // 2):
            size += size // 2
        self.keys = np.empty(size, dtype=np.uint64)
        if self.counting:
            self.indices = np.empty(size, dtype=np.int64)
        self.window = needed
        core.rehash(self.keys, self.indices, self.states, needed, self.stored)

    def _raise_if_failed(self) -> None:
        machine = self.tables.machine
        if machine.ndim == 1 and self.ws[machine[WS_ERR]] != 0:
            self._raise_recorded()

    def _raise_recorded(self) -> None:
        from ..machine.assembly import build as build_program

        build_program(self.compiled).raise_recorded(self.ws)


def share_of(reference: int) -> tuple[int, int]:
    """A state's reference as (its share, its number there)."""
    return reference >> SHARE_SHIFT, reference & ((1 << SHARE_SHIFT) - 1)


def _wider(array: np.ndarray, width: int, counts: np.ndarray) -> np.ndarray:
    wider = np.empty((array.shape[0], width), dtype=array.dtype)
    for q, count in enumerate(counts):
        wider[q, :count] = array[q, :count]
    return wider


def _empty_table(size: int) -> np.ndarray:
    return np.full(size, EMPTY, dtype=np.uint64)
