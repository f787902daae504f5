"""States of any number of words, kept in the order they are found (the rows of a 2D array),
with an open-addressing hash table of their indexes (numba): the store of the kernel's
searches on the machine that look states up by index (uniform cost, and breadth first on
states wider than a word).

The table holds a state's index in each used slot (FREE elsewhere), at most three quarters
full, so that a state costs its words plus about six bytes of table. Finding a state hashes
its words and compares rows; the Python side grows the arrays (`Rows.make_room`) between two
kernel calls.
"""

from __future__ import annotations

import numpy as np

from ..compiling.jit import njit
from .sets import home

FREE = -1
FIRST_CAPACITY = 1 << 12


@njit(cache=True, inline="always")
def _same(states: np.ndarray, i: int, rows: np.ndarray, r: int) -> bool:
    for w in range(rows.shape[1]):  # noqa: SIM110 - numba compiles loops, not generators
        if states[i, w] != rows[r, w]:
            return False
    return True


@njit(cache=True, inline="always")
def find(table: np.ndarray, states: np.ndarray, rows: np.ndarray, r: int) -> int:
    """The slot holding the index of the state rows[r], or the free slot where it belongs."""
    size = len(table)
    at = home(table, rows, r)  # as the sets of rows hash them
    while True:
        i = table[at]
        if i == FREE or _same(states, i, rows, r):
            return at
        at += 1
        if at == size:
            at = 0


@njit(cache=True)
def rehash(table: np.ndarray, states: np.ndarray, count: int) -> None:
    """Fill the (new) table with states 0..count-1."""
    table[:] = FREE
    for i in range(count):
        table[find(table, states, states, i)] = i


def table_size(held: int, size: int = FIRST_CAPACITY) -> int:
    """A table size, grown by half at a time from `size`, that holds `held` states at most
    three quarters full."""
    while held > size // 4 * 3:
        size += size // 2
    return size


class Rows:
    """The states found (rows of `words` words) and their table, grown as a search needs."""

    def __init__(self, words: int, first: np.ndarray):
        self.states = np.zeros((FIRST_CAPACITY, words), dtype=np.uint64)
        self.table = np.full(table_size(FIRST_CAPACITY), FREE, dtype=np.int32)
        self.states[0] = first
        self.table[find(self.table, self.states, self.states, 0)] = 0

    @property
    def capacity(self) -> int:
        return len(self.states)

    def full(self, count: int, room: int) -> bool:
        """Whether `room` more states may not fit after the `count` found."""
        return count + room > self.capacity or count + room > len(self.table) // 4 * 3

    def make_room(self, count: int, room: int) -> None:
        """Room for `room` more states after the `count` found: the states grow by a quarter,
        the table by half, as needed."""
        if count + room > self.capacity:
            capacity = max(count + room, self.capacity + self.capacity // 4)
            self.states.resize((capacity, self.states.shape[1]), refcheck=False)
        if count + room > len(self.table) // 4 * 3:
            self.table = np.empty(table_size(count + room, len(self.table)), dtype=np.int32)
            rehash(self.table, self.states, count)

    def nbytes(self) -> int:
        return int(self.states.nbytes + self.table.nbytes)
