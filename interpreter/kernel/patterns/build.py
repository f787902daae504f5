"""A pattern database built on the kernel: a breadth-first search backward from the
abstract goal over every state of the abstraction (`heuristics.abstraction`), its distances in
one byte each, then the least over the empty cells' places kept for each placement of the
pattern's pieces.

An abstract state is a cell array of symbols: 0 empty, 1..k the pattern's pieces, k + 1 any
other piece (all others alike). It is numbered by the placement of the pattern's pieces
(`model.patterns`: a rank below P(n, k)) times C(n - k, e), plus the combination of the e
empty cells among the cells those pieces leave (colexicographic rank). The moves are the
puzzle's own rewrite instances, reversed, as small programs of operations (`ops`): a check
of a cell's symbol, a cell that must hold a piece, two cells that hold the same symbol, a
write, a copy. A move costs 1 or, where the tables add up, 1 only when it changes a cell that
holds one of the pattern's pieces before or after it (0-1 breadth first: a state reached at
no cost joins its own layer).
"""

from __future__ import annotations

import numpy as np

from ..compiling.jit import njit

# an operation: (kind, x, y)
CHECK, OCCUPIED, SAME, WRITE, COPY = range(5)
OTHER = -1  # in a CHECK or WRITE: the symbol "another piece" (k + 1 once k is known)


@njit(cache=True, inline="always")
def _place(placement: int, n: int, k: int, weights: np.ndarray, base: np.ndarray) -> None:
    """The pattern's pieces of placement number `placement`, written into `base` (every cell
    not given a pattern piece holds another piece: k + 1)."""
    for c in range(n):
        base[c] = k + 1
    for i in range(k):
        digit = (placement // weights[i]) % (n - i)
        free = -1
        for c in range(n):
            if base[c] == k + 1:
                free += 1
                if free == digit:
                    base[c] = i + 1
                    break


@njit(cache=True, inline="always")
def _empty(
    combination: int, n: int, k: int, empties: int, binom: np.ndarray, base: np.ndarray, cells: np.ndarray
) -> None:
    """The abstract state of `base`'s placement and this combination of empty cells among the
    cells its pieces leave, written into `cells`."""
    for c in range(n):
        cells[c] = base[c]
    left = combination
    for j in range(empties, 0, -1):
        q = j - 1
        while binom[q + 1, j] <= left:
            q += 1
        left -= binom[q, j]
        place = -1
        for c in range(n):
            if cells[c] == 0 or cells[c] == k + 1:
                place += 1
                if place == q:
                    cells[c] = 0
                    break


@njit(cache=True, inline="always")
def _bits(x: int) -> int:
    """How many bits of x are set (x below 2**32)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    return (((x + (x >> 4)) & 0x0F0F0F0F) * 0x01010101 & 0xFFFFFFFF) >> 24


@njit(cache=True, inline="always")
def _rank(n: int, k: int, combos: int, weights: np.ndarray, binom: np.ndarray, cells: np.ndarray) -> int:
    placement = 0
    seen = 0  # the pattern's pieces met so far, a bit each
    combination = 0
    met = 0  # the pattern's pieces met so far
    j = 0  # the empty cells met so far
    for c in range(n):
        v = cells[c]
        if v >= 1 and v <= k:
            i = v - 1
            placement += (c - _bits(seen & ((1 << i) - 1))) * weights[i]
            seen |= 1 << i
            met += 1
        elif v == 0:
            j += 1
            combination += binom[c - met, j]
    return placement * combos + combination


@njit(cache=True, inline="always")
def _applies(ops: np.ndarray, first: int, last: int, k: int, cells: np.ndarray) -> bool:
    for o in range(first, last):
        kind, x, y = ops[o, 0], ops[o, 1], ops[o, 2]
        if kind == CHECK:
            want = k + 1 if y == OTHER else y
            if cells[x] != want:
                return False
        elif kind == OCCUPIED:
            if cells[x] == 0:
                return False
        elif kind == SAME and cells[x] != cells[y]:
            return False
    return True


@njit(cache=True, inline="always")
def _apply(ops: np.ndarray, first: int, last: int, k: int, cells: np.ndarray, out: np.ndarray, additive: bool) -> int:
    """The state after the move (in `out`); its cost in this table."""
    n = cells.shape[0]
    for c in range(n):
        out[c] = cells[c]
    cost = 0 if additive else 1
    for o in range(first, last):
        kind, x, y = ops[o, 0], ops[o, 1], ops[o, 2]
        if kind == WRITE:
            out[x] = k + 1 if y == OTHER else y
        elif kind == COPY:
            out[x] = cells[y]
        else:
            continue
        if (cells[x] >= 1 and cells[x] <= k) or (out[x] >= 1 and out[x] <= k):
            cost = 1
    return cost


@njit(cache=True, inline="always")
def _expand(
    index: int,
    depth: int,
    dist: np.ndarray,
    done: np.ndarray,
    stack: np.ndarray,
    top: int,
    n: int,
    k: int,
    empties: int,
    combos: int,
    weights: np.ndarray,
    binom: np.ndarray,
    ops: np.ndarray,
    moves: np.ndarray,
    by_empty: np.ndarray,
    by_empty_start: np.ndarray,
    cells: np.ndarray,
    out: np.ndarray,
    base: np.ndarray,
    based: np.ndarray,
    additive: bool,
) -> int:
    """Every predecessor of state `index` (at `depth`): those reached at no cost pushed on the
    stack of this layer, the others given the next layer. The new top of the stack, or -1 if
    the stack is full."""
    placement = index // combos
    if placement != based[0]:  # states are met placement by placement: most share the last one's
        _place(placement, n, k, weights, base)
        based[0] = placement
    _empty(index % combos, n, k, empties, binom, base, cells)
    for e in range(n + 1):  # the moves indexed by an empty cell they need, then the others
        if e < n and cells[e] != 0:
            continue
        for t in range(by_empty_start[e], by_empty_start[e + 1]):
            m = by_empty[t]
            if not _applies(ops, moves[m], moves[m + 1], k, cells):
                continue
            cost = _apply(ops, moves[m], moves[m + 1], k, cells, out, additive)
            child = _rank(n, k, combos, weights, binom, out)
            if cost == 0:
                if dist[child] > depth:
                    dist[child] = depth
                if ((done[child >> 3] >> (child & 7)) & 1) == 0:
                    if top >= stack.shape[0]:
                        return -1
                    stack[top] = child
                    top += 1
            elif dist[child] > depth + 1:
                dist[child] = depth + 1
    return top


# the counters of a layer's expansion, kept between calls
SCAN, TOP, EXPANDED = range(3)


@njit(cache=True)
def layer(
    depth: int,
    c: np.ndarray,
    dist: np.ndarray,
    done: np.ndarray,
    stack: np.ndarray,
    n: int,
    k: int,
    empties: int,
    combos: int,
    weights: np.ndarray,
    binom: np.ndarray,
    ops: np.ndarray,
    moves: np.ndarray,
    by_empty: np.ndarray,
    by_empty_start: np.ndarray,
    additive: bool,
) -> bool:
    """Expand every state of layer `depth` not yet expanded (and every state reached from them
    at no cost), scanning from c[SCAN]. False: the stack must grow (its contents and c[TOP]
    kept), then call again."""
    cells = np.zeros(n, dtype=np.int64)
    out = np.zeros(n, dtype=np.int64)
    base = np.zeros(n, dtype=np.int64)  # the cells of placement based[0] (-1: none yet)
    based = np.full(1, -1, dtype=np.int64)
    total = dist.shape[0]
    while True:
        while c[TOP] > 0:
            s = stack[c[TOP] - 1]
            if (done[s >> 3] >> (s & 7)) & 1:
                c[TOP] -= 1
                continue
            top = _expand(
                s,
                depth,
                dist,
                done,
                stack,
                c[TOP],
                n,
                k,
                empties,
                combos,
                weights,
                binom,
                ops,
                moves,
                by_empty,
                by_empty_start,
                cells,
                out,
                base,
                based,
                additive,
            )
            if top < 0:
                return False  # s stays on the stack (what it pushed is dropped): expanded again with room
            done[s >> 3] |= 1 << (s & 7)  # below its successors on the stack: skipped when met again
            c[EXPANDED] += 1
            c[TOP] = top
        index = c[SCAN]
        while index < total and (dist[index] != depth or (done[index >> 3] >> (index & 7)) & 1):
            index += 1
        c[SCAN] = index
        if index >= total:
            return True
        stack[0] = index
        c[TOP] = 1
