"""The open list of the kernel's best-first searches: a binary heap of rows (f, -g, tie,
item), ordered as Python's heap of tuples is, so that states are popped in the order the
Python engine pops them."""

from __future__ import annotations

import numpy as np

from ..compiling.jit import njit

HEAP = 1  # the counters' entry that holds the number of rows in the heap (each search's c[HEAP])


@njit(cache=True)
def push(heap: np.ndarray, c: np.ndarray, f: int, g: int, tie: int, item: int) -> None:
    """Push (f, -g, tie) -> item onto the heap (rows of four integers)."""
    at = c[HEAP]
    c[HEAP] = at + 1
    heap[at, 0], heap[at, 1], heap[at, 2], heap[at, 3] = f, -g, tie, item
    while at > 0:
        up = (at - 1) // 2
        if not _before(heap, at, up):
            break
        for k in range(4):
            heap[at, k], heap[up, k] = heap[up, k], heap[at, k]
        at = up


@njit(cache=True, inline="always")
def _before(heap: np.ndarray, a: int, b: int) -> bool:
    for k in range(3):
        if heap[a, k] != heap[b, k]:
            return bool(heap[a, k] < heap[b, k])
    return False


@njit(cache=True)
def pop(heap: np.ndarray, c: np.ndarray) -> int:
    """The item of the least entry, taken off the heap."""
    item = heap[0, 3]
    last = c[HEAP] - 1
    c[HEAP] = last
    for k in range(4):
        heap[0, k] = heap[last, k]
    at = 0
    while True:
        left, smallest = 2 * at + 1, at
        if left < last and _before(heap, left, smallest):
            smallest = left
        if left + 1 < last and _before(heap, left + 1, smallest):
            smallest = left + 1
        if smallest == at:
            return int(item)
        for k in range(4):
            heap[at, k], heap[smallest, k] = heap[smallest, k], heap[at, k]
        at = smallest
