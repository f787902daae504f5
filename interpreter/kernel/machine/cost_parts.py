"""Costs of several parts (`cost 1, 1`: the fewest pushes, then the fewest moves) on the
kernel, as one word: the parts are packed into fields, the first part highest, so that
adding two packed costs adds them part by part and comparing two compares them in order,
as `search.costs.LexCost` does in Python. The kernel's cheapest-first search then runs
them unchanged, with whole numbers.

That holds only while no part's sum leaves its field. Each part is 0 or more (a part that
may be below 0 is refused: the carry into the next field would change the order), and each
move's part fits its field with one bit to spare (from `compiler.ranges.cost_parts`): a part
that may not is refused with the reason, and the Python engine answers. The spare bit of
each field below the first is its guard: the sum of two costs whose fields are below their
guards never carries into the next field, and sets the guard where the field overflowed,
which the search checks (`CostPacking.guards`) and hands over to Python. The first part's
field runs up to KERNEL_BOUND, which the search checks of every cost already.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...compiler.ranges import KERNEL_BOUND, Interval, cost_parts
from ...model import expr as m
from ...model.puzzle import Puzzle
from ...search.costs import LexCost
from .bytecode import Unsupported

WORD_BITS = KERNEL_BOUND.bit_length() - 1  # every packed cost stays below 2**62


@dataclass(frozen=True)
class CostPacking:
    """Where each part of a cost lies in the packed word (the first part highest)."""

    shifts: tuple[int, ...]
    field: int  # bits of each field below the first, its guard bit included

    @property
    def guards(self) -> int:
        """The top bit of every field below the first: set once a sum has left its field."""
        return sum(1 << (shift + self.field - 1) for shift in self.shifts[1:])

    def packed(self, cost: m.Call) -> m.Expr:
        """The cost as one number: each part times 2**its shift, added in the parts' order
        (so an error in a part is met where Python meets it)."""
        total: m.Expr | None = None
        for part, shift in zip(cost.args, self.shifts, strict=True):
            term = part if shift == 0 else m.Binary(part.pos, "*", part, m.Const(part.pos, 1 << shift, m.NUM), m.NUM)
            total = term if total is None else m.Binary(cost.pos, "+", total, term, m.NUM)
        assert total is not None
        return total

    def unpack(self, value: int) -> LexCost:
        """The parts of a packed cost."""
        mask = (1 << self.field) - 1
        top = value >> self.shifts[0]
        return LexCost((top, *((value >> shift) & mask for shift in self.shifts[1:])))


def packing(puzzle: Puzzle) -> CostPacking | None:
    """How this puzzle's costs of several parts are packed (None: its costs are plain
    numbers); Unsupported, with the reason, where a part may not fit its field."""
    parts = cost_parts(puzzle)
    if parts is None:
        return None
    if any(not _parted(move.cost, len(parts)) for move in puzzle.moves):
        raise Unsupported("moves whose costs have different numbers of parts")
    field = WORD_BITS // len(parts)
    shifts = tuple(field * (len(parts) - 1 - i) for i in range(len(parts)))
    for i, (bounds, shift) in enumerate(zip(parts, shifts, strict=True)):
        room = (WORD_BITS - shift) if i == 0 else field - 1
        _check_part(i, bounds, room)
    return CostPacking(shifts, field)


def _parted(cost: m.Expr | None, count: int) -> bool:
    return isinstance(cost, m.Call) and cost.name == "parts" and len(cost.args) == count


def _check_part(index: int, bounds: Interval, room: int) -> None:
    """Refuse a part that may be below 0 or reach 2**room."""
    which = f"part {index + 1} of a move's cost"
    if bounds.low < 0:
        raise Unsupported(f"{which} may be below 0 ({bounds.low:,}), which the kernel does not pack (Python does)")
    if bounds.high >= 1 << room:
        raise Unsupported(
            f"{which} may reach {bounds.high:,}, past the kernel's field of {room} bits for it (Python has no bound)"
        )
