"""The compiled state: one `bytes` value per state, laid out as

    [one byte per cell][each counter, 1 or more bytes][each place]

A cell holds its code (0: empty). A counter holds its value minus its lowest value,
little-endian, in as many bytes as its range needs (a cursor: its cell + 1, 0 when it is off
the board). A bag holds one byte per piece (how many are there, indexed by code - 1); a stack
holds its pieces bottom first, padded with 0 up to its capacity. Interchangeable pieces are
never told apart, and `bytes` keeps states hashable and cheap to compare.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model.expr import NONE
from ..model.puzzle import CURSOR, Puzzle, State

Reader = Callable[[bytes | bytearray], int]


@dataclass(frozen=True)
class CounterSlot:
    offset: int
    width: int
    low: int
    high: int
    cursor: bool


@dataclass(frozen=True)
class PlaceSlot:
    offset: int
    length: int
    stack: bool


class StateLayout:
    def __init__(self, puzzle: Puzzle):
        self.cells = puzzle.cell_count
        self.pieces = len(puzzle.pieces)
        offset = self.cells
        counters = []
        for counter in puzzle.counters:
            low = -1 if counter.role == CURSOR else counter.low
            span = counter.high - low
            width = max(1, (span.bit_length() + 7) // 8)
            counters.append(CounterSlot(offset, width, low, counter.high, counter.role == CURSOR))
            offset += width
        self.counters = tuple(counters)
        total = max(
            1,
            sum(puzzle.start.cells.count(c) for c in range(1, len(puzzle.parts)))
            + sum(
                sum(bag) if not place.stack else len(bag)
                for place, bag in zip(puzzle.places, puzzle.start.places, strict=True)
            ),
        )
        places = []
        for place in puzzle.places:
            length = total if place.stack else self.pieces
            places.append(PlaceSlot(offset, length, place.stack))
            offset += length
        self.places = tuple(places)
        self.size = offset

    # ---- counters
    def reader(self, index: int) -> Reader:
        slot = self.counters[index]
        at, low = slot.offset, slot.low
        if slot.width == 1:
            return lambda s: s[at] + low
        end = at + slot.width
        return lambda s: int.from_bytes(s[at:end], "little") + low

    def write_counter(self, state: bytearray, index: int, value: int) -> bool:
        """Store a counter's value; False if it is outside the counter's range."""
        slot = self.counters[index]
        if not slot.low <= value <= slot.high:
            return False
        raw = value - slot.low
        if slot.width == 1:
            state[slot.offset] = raw
        else:
            state[slot.offset : slot.offset + slot.width] = raw.to_bytes(slot.width, "little")
        return True

    # ---- whole states
    def encode(self, state: State) -> bytes:
        out = bytearray(self.size)
        out[: self.cells] = bytes(state.cells)
        for i, value in enumerate(state.counters):
            ok = self.write_counter(out, i, value)
            assert ok, "a start counter outside its range is refused by elaboration"
        for slot, contents in zip(self.places, state.places, strict=True):
            out[slot.offset : slot.offset + len(contents)] = bytes(contents)
        return bytes(out)

    def decode(self, state: bytes) -> State:
        counters = tuple(self.reader(i)(state) for i in range(len(self.counters)))
        places = []
        for slot in self.places:
            part = state[slot.offset : slot.offset + slot.length]
            places.append(tuple(part.rstrip(b"\0")) if slot.stack else tuple(part))
        return State(tuple(state[: self.cells]), counters, tuple(places))

    def bag(self, state: bytes | bytearray, place: int) -> bytes:
        """How many of each piece a place holds (a stack's contents counted)."""
        slot = self.places[place]
        part = bytes(state[slot.offset : slot.offset + slot.length])
        if not slot.stack:
            return part
        counts = bytearray(self.pieces)
        for code in part:
            if code:
                counts[code - 1] += 1
        return bytes(counts)

    def stack(self, state: bytes | bytearray, place: int) -> bytes:
        slot = self.places[place]
        return bytes(state[slot.offset : slot.offset + slot.length]).rstrip(b"\0")


def cursor_cell(value: int) -> int:
    """A cursor's stored value is its cell, or NONE off the board."""
    return value if value >= 0 else NONE
