"""Hash sets of packed states of several words, for the kernel's searches (numba).

A set is a 2D array of unsigned words, one row a slot, and an open-addressing table with
linear probing: a free slot's first word is all ones (no state has its top bit set). Rows
may be deleted (backward shift, so that no tombstone is left). The caller keeps the count
and grows the table (`grown`) before it is more than three quarters full.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from ..compiling.jit import int64, njit

EMPTY = uint64(0xFFFFFFFFFFFFFFFF)


def new_set(size: int, words: int) -> np.ndarray:
    keys = np.empty((max(4, size), words), dtype=np.uint64)
    keys[:, 0] = EMPTY
    return keys


@njit(cache=True, inline="always")
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    return z ^ (z >> uint64(31))


@njit(cache=True, inline="always")
def home(keys: np.ndarray, rows: np.ndarray, row: int) -> int:
    """The slot where a state's search starts (the top half of its hash, scaled)."""
    h = uint64(0x9E3779B97F4A7C15)
    for w in range(rows.shape[1]):
        h = _mix(h ^ rows[row, w])
    return int64(((h >> uint64(32)) * uint64(len(keys))) >> uint64(32))  # a signed index


@njit(cache=True, inline="always")
def _equal(keys: np.ndarray, slot: int, rows: np.ndarray, row: int) -> bool:
    for w in range(rows.shape[1]):  # noqa: SIM110 - numba compiles loops, not generators
        if keys[slot, w] != rows[row, w]:
            return False
    return True


@njit(cache=True, inline="always")
def find(keys: np.ndarray, rows: np.ndarray, row: int) -> int:
    """The slot holding rows[row], or the free slot where it belongs."""
    size = keys.shape[0]
    at = home(keys, rows, row)
    while True:
        if keys[at, 0] == EMPTY or _equal(keys, at, rows, row):
            return at
        at += 1
        if at == size:
            at = 0


@njit(cache=True, inline="always")
def contains(keys: np.ndarray, rows: np.ndarray, row: int) -> bool:
    return bool(keys[find(keys, rows, row), 0] != EMPTY)


@njit(cache=True, inline="always")
def add(keys: np.ndarray, rows: np.ndarray, row: int) -> bool:
    """Add rows[row]; False if it was there already."""
    at = find(keys, rows, row)
    if keys[at, 0] != EMPTY:
        return False
    for w in range(rows.shape[1]):
        keys[at, w] = rows[row, w]
    return True


@njit(cache=True, inline="always")
def remove(keys: np.ndarray, rows: np.ndarray, row: int) -> bool:
    """Remove rows[row] (False if it was not there), shifting back the rows after it that
    would no longer be found."""
    size = keys.shape[0]
    hole = find(keys, rows, row)
    if keys[hole, 0] == EMPTY:
        return False
    at = hole
    while True:
        at += 1
        if at == size:
            at = 0
        if keys[at, 0] == EMPTY:
            break
        start = home(keys, keys, at)
        # the row at `at` may fill the hole if its home is not in (hole, at]
        if (hole < at and (start <= hole or start > at)) or (hole > at and start <= hole and start > at):
            for w in range(keys.shape[1]):
                keys[hole, w] = keys[at, w]
            hole = at
    keys[hole, 0] = EMPTY
    return True


@njit(cache=True)
def refill(keys: np.ndarray, old: np.ndarray) -> int:
    """Put every row of the table `old` into the empty table `keys`: how many."""
    n = 0
    for i in range(old.shape[0]):
        if old[i, 0] != EMPTY:
            add(keys, old, i)
            n += 1
    return n


def grown(keys: np.ndarray) -> np.ndarray:
    """The same set in a table twice the size."""
    bigger = new_set(2 * keys.shape[0], keys.shape[1])
    refill(bigger, keys)
    return bigger


@njit(cache=True, inline="always")
def full(keys: np.ndarray, count: int) -> bool:
    """Whether one more row would make the table more than three quarters full."""
    return bool(count + 1 > keys.shape[0] // 4 * 3)
