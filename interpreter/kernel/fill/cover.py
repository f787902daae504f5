"""The kernel's exact cover: every tiling, by laying a piece over the first open cell, in
numba.

A placement is a mask of bits: the cells it covers, and a bit of its own piece (so that a
piece placed is a bit covered, and a placement of it meets it). Every cell before the first
open one is covered, so a piece laid over that cell has it as its own first square: only
the placements *anchored* there are tried, each if its mask meets nothing covered; those
are kept sorted by which of the next three cells they need, so that the ones that need a
covered cell are not looked at. When every piece is placed every cell is covered (their
squares add up to the cells): a tiling. This is the plain backtracking of polyomino packing,
with a word AND where a Python program walks sets.

The cells are ordered across the board's narrow side (column by column on a board wider
than it is tall): the first open cell is then always near the covered part, whose edge
stays short and leaves few ways to lay the next piece. On 3 x 20 this is the difference
between 71 thousand placements and a billion. (Knuth's Algorithm X, the column with the
fewest rows first, needs no such order, but removes a hundred rows at each placement:
measured here, 30 times slower on 6 x 10. Following the regions a placement walls in, to
cut those no pieces can fill, cut a quarter of the placements and cost more than it saved.)

The walk is a loop over an explicit stack (a depth per piece placed), so that it can stop
after a number of placements and go on from where it was: the Python side checks the run's
limits between calls and streams the tilings one by one.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...compiler.families.tile import TileFamily
from ...search.limits import Limits
from ..compiling.jit import njit

STEP = 1_000_000  # placements tried between two looks at the limits, at most (a few milliseconds)
FINISHED, FOUND, PAUSED = 0, 1, 2
AHEAD = 3  # the placements anchored at a cell are sorted by which of the next cells they need


@njit(cache=True, nogil=True)
def _first_open(covered, after):  # type: ignore[no-untyped-def]
    """The first cell (by its bit) at or after `after` that is not covered."""
    bit = after
    while (covered[bit >> 6] >> np.uint64(bit & 63)) & np.uint64(1):
        bit += 1
    return bit


@njit(cache=True, nogil=True)
def _slot(covered, a):  # type: ignore[no-untyped-def]
    """Where the placements anchored at bit a begin in `anchored`, for the cells after it as
    they are (each of the next AHEAD cells open or not: a bit of the pattern)."""
    pattern = 0
    for i in range(AHEAD):
        bit = a + 1 + i
        if ((covered[bit >> 6] >> np.uint64(bit & 63)) & np.uint64(1)) == 0:
            pattern |= 1 << i
    return (a << AHEAD) | pattern


@njit(cache=True, nogil=True)
def _meets(covered, d, masks, p, words):  # type: ignore[no-untyped-def]
    """Whether placement p covers a cell that depth d sees covered."""
    if words == 1:
        return (covered[d, 0] & masks[p, 0]) != 0
    if words == 2:
        return ((covered[d, 0] & masks[p, 0]) | (covered[d, 1] & masks[p, 1])) != 0
    for w in range(words):  # noqa: SIM110 (numba compiles loops, not generators)
        if covered[d, w] & masks[p, w]:
            return True
    return False


@njit(cache=True, nogil=True)
def _walk(masks, anchored, anchored_start, pieces, covered, slot, next_try, chosen, where, counted, budget, counting):  # type: ignore[no-untyped-def]
    """Go on with the walk for `budget` placements at most. where = [depth, started,
    placements tried]; covered[d] is what depth d sees covered, slot[d] the placements it
    tries. Returns FINISHED, FOUND (a tiling in chosen) or PAUSED."""
    words = masks.shape[1]
    d = where[0]
    if where[1] == 0:
        where[1] = 1
        d = 0
        slot[0] = _slot(covered[0], _first_open(covered[0], 0))
        next_try[0] = anchored_start[slot[0]]
    while budget > 0:
        if d < 0:
            where[0] = d
            return FINISHED
        j = next_try[d]
        end = anchored_start[slot[d] + 1]
        p = -1
        while j < end:  # the next placement that fits, its piece not yet placed
            q = anchored[j]
            j += 1
            if _meets(covered, d, masks, q, words):
                continue
            p = q
            break
        next_try[d] = j
        if p < 0:
            d -= 1
            continue
        budget -= 1
        where[2] += 1
        chosen[d] = p
        if d + 1 == pieces:
            if counting:
                counted[0] += 1
                continue
            where[0] = d
            return FOUND
        for w in range(words):
            covered[d + 1, w] = covered[d, w] | masks[p, w]
        a = slot[d] >> AHEAD
        d += 1
        slot[d] = _slot(covered[d], _first_open(covered[d], a + 1))
        next_try[d] = anchored_start[slot[d]]
    where[0] = d
    return PAUSED


class CoverKernel:
    """A tiling's placements as the kernel's arrays: placement i (the family's numbers[i])
    is a mask of cell bits, and the placements anchored at bit a are anchored_start[a] up to
    anchored_start[a + 1]."""

    def __init__(self, family: TileFamily):
        cells = across(family)
        bit = {cell: i for i, cell in enumerate(cells)}
        self.pieces = len(family.pieces)
        self.words = (len(cells) + 1 + AHEAD + self.pieces + 63) // 64
        # the cells' bits, AHEAD + 1 bits always covered (where a scan ends), then a bit per
        # piece: a placement covers its piece's bit, so that a piece placed is a cell covered

        def anchor(number: int) -> int:
            return min(bit[c] for c in family.placements[number].cells)

        order = sorted(range(len(family.placements)), key=anchor)
        self.numbers = np.array(order, dtype=np.int64)
        self.masks = np.zeros((max(1, len(order)), self.words), dtype=np.uint64)
        buckets: list[list[int]] = [[] for _ in range((len(cells) + 1) << AHEAD)]
        for i, number in enumerate(order):
            placement = family.placements[number]
            bits = {bit[c] for c in placement.cells}
            for b in bits:
                self.masks[i, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
            b = len(cells) + 1 + AHEAD + placement.piece
            self.masks[i, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
            first = min(bits)
            needed = sum(1 << k for k in range(AHEAD) if first + 1 + k in bits)
            for pattern in range(1 << AHEAD):
                if pattern & needed == needed:
                    buckets[(first << AHEAD) | pattern].append(i)
        self.anchored = np.array([i for bucket in buckets for i in bucket] or [0], dtype=np.int64)
        self.anchored_start = np.zeros(len(buckets) + 1, dtype=np.int64)
        self.anchored_start[1:] = np.cumsum([len(bucket) for bucket in buckets])
        self.beyond = np.zeros(self.words, dtype=np.uint64)
        for b in range(len(cells), len(cells) + 1 + AHEAD):
            self.beyond[b >> 6] |= np.uint64(1) << np.uint64(b & 63)

    def walk(self, limits: Limits, visited: list[int], counted: list[int] | None = None) -> Iterator[list[int]]:
        """Each tiling's placements (the family's numbers), as found; with `counted`, the
        tilings are counted in counted[0] and none is yielded. visited[0]: placements tried."""
        depth = self.pieces
        covered = np.zeros((depth + 1, self.words), dtype=np.uint64)
        covered[0] = self.beyond
        slot = np.zeros(depth + 1, dtype=np.int64)
        next_try = np.zeros(depth + 1, dtype=np.int64)
        chosen = np.zeros(depth + 1, dtype=np.int64)
        where = np.zeros(3, dtype=np.int64)
        count = np.zeros(1, dtype=np.int64)
        counting = counted is not None
        arrays = (self.masks, self.anchored, self.anchored_start, depth)
        while True:
            budget = min(limits.check(visited[0], stored=False), STEP)  # placements until the next look
            outcome = _walk(*arrays, covered, slot, next_try, chosen, where, count, budget, counting)
            visited[0] = int(where[2])
            if counted is not None:
                counted[0] = int(count[0])
            if outcome == FINISHED:
                return
            if outcome == FOUND:
                yield [int(self.numbers[chosen[k]]) for k in range(depth)]


def across(family: TileFamily) -> list[int]:
    """The cells to cover in the order the walk fills them: row by row, or column by column
    where the cells span more columns than rows."""
    board = family.board
    rows = {board.cells[c].row for c in family.cells}
    cols = {board.cells[c].col for c in family.cells}
    if len(cols) <= len(rows):
        return list(family.cells)
    return sorted(family.cells, key=lambda c: (board.cells[c].col, board.cells[c].row))
