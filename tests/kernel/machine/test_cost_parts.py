"""Costs of several parts packed into one word (`kernel.machine.cost_parts`): packed costs
add and order as `search.costs.LexCost` does, while no part leaves its field; a part that
may be below 0 or past its field is refused with the reason."""

from __future__ import annotations

import itertools
import random
import re

import pytest
from puzint.kernel.machine.bytecode import Unsupported
from puzint.kernel.machine.cost_parts import CostPacking, packing
from puzint.search.costs import LexCost

from tests.conftest import compiled_from

COUNTER = """
counter C = 0 in 0..20
goal when C == 3
move inc: set C = C + 1 cost COST
search cheapest
"""


def packing_of(cost: str) -> CostPacking | None:
    return packing(compiled_from(COUNTER.replace("COST", cost)).puzzle)


def packed(layout: CostPacking, parts: tuple[int, ...]) -> int:
    return sum(part << shift for part, shift in zip(parts, layout.shifts, strict=True))


@pytest.mark.parametrize("count", [2, 3, 4])
def test_packed_costs_add_and_order_as_their_parts_do(count: int) -> None:
    layout = packing_of(", ".join(["1"] * count))
    assert layout is not None and len(layout.shifts) == count
    chance = random.Random(count)
    field = 1 << (layout.field - 2)  # two such parts add within the field
    costs = [tuple(chance.randrange(field) for _ in range(count)) for _ in range(40)]
    costs += [(0,) * count, (1,) + (0,) * (count - 1), (0,) * (count - 1) + (field - 1,)]
    for a, b in itertools.product(costs, repeat=2):
        total = packed(layout, a) + packed(layout, b)
        assert total & layout.guards == 0
        assert layout.unpack(total) == LexCost(a) + LexCost(b)
        assert (packed(layout, a) < packed(layout, b)) == (LexCost(a) < LexCost(b))


def test_a_part_past_its_field_sets_its_guard() -> None:
    layout = packing_of("1, 1")
    assert layout is not None
    half = 1 << (layout.field - 1)  # the largest sum the field holds, plus one
    assert (packed(layout, (0, half - 1)) + packed(layout, (0, 1))) & layout.guards != 0
    assert (packed(layout, (5, half - 2)) + packed(layout, (0, 1))) & layout.guards == 0


def test_plain_costs_are_not_packed() -> None:
    assert packing_of("C + 1") is None


@pytest.mark.parametrize(
    ("cost", "why"),
    [
        ("1, C - 5", "part 2 of a move's cost may be below 0 (-5)"),
        ("1, 2000000000", "part 2 of a move's cost may reach 2,000,000,000, past the kernel's field of 30 bits"),
        ("4000000000, 1", "part 1 of a move's cost may reach 4,000,000,000, past the kernel's field of 31 bits"),
    ],
)
def test_a_part_that_may_not_fit_is_refused_with_the_reason(cost: str, why: str) -> None:
    with pytest.raises(Unsupported, match=re.escape(why)):
        packing_of(cost)
