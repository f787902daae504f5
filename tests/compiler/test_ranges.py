"""The range of every value of a spec: a value that may leave the kernel's 64-bit integers
sends the spec to the Python engine (`auto`) or is refused with its place (`--engine
compiled`); the answer is the Python engine's, never a wrapped one."""

from __future__ import annotations

import pytest
from puzint.compiler.ranges import ESTIMATE_BOUND, KERNEL_BOUND, first_wide
from puzint.kernel import installed, why_not
from puzint.runner import search
from puzint.search import Limits
from puzint.search.result import SOLVED

from tests.conftest import DEAR_MOVES, compiled_from

COUNTING = """
puzzle "counting up"
counter C = 0 in 0..20
goal when C == 12
move inc: set C = C + 1
safe: {rule}
"""


def wide(rule: str) -> tuple[int, int] | None:
    found = first_wide(compiled_from(COUNTING.format(rule=rule)).puzzle)
    return None if found is None else (found.pos.line, found.pos.column)


@pytest.mark.parametrize(
    "rule",
    [
        "C * 999999999999999999 > -1",  # a product
        "C + 999999999999999999 * 9 > 0",  # a constant folded past 2**62
        "-C * 999999999999999999 < 1",
        "abs(C - 999999999999999999 * 5) > 0",
        "sum(C * 999999999999999999 for n in 1..3) >= 0",  # an aggregate: the terms' bound times their number
        "max(C, 1) * 999999999999999999 > 0",
    ],
)
def test_a_value_that_may_leave_64_bits_is_found_where_it_is_written(rule: str) -> None:
    assert wide(rule) == (6, 7)


@pytest.mark.parametrize(
    "rule",
    [
        "C * 99999999999999999 > -1",  # 20 * 10**17 fits
        "C / 0 == 0 or true",  # a quotient is no larger than what it divides
        "C % 999999999999999999 >= 0",
        "count(n in 1..5 if n > C) < 9",
        "C < 999999999999999999",
    ],
)
def test_values_that_fit_are_left_to_the_kernel(rule: str) -> None:
    assert wide(rule) is None


def test_a_counter_read_has_its_declared_range() -> None:
    text = """
puzzle "wide counter"
counter C = 999999999999999990 in 999999999999999990..999999999999999999
goal when C == 999999999999999993
move inc: set C = C - 1 if C * {factor} > 10
"""
    assert first_wide(compiled_from(text.format(factor=4)).puzzle) is None
    found = first_wide(compiled_from(text.format(factor=5)).puzzle)
    assert found is not None and found.interval == (5 * 999999999999999990, 5 * 999999999999999999)


def test_a_heuristic_has_a_tighter_bound() -> None:
    text = """
puzzle "estimate"
counter C = 0 in 0..5
goal when C == 3
move inc: set C = C + 1
heuristic (3 - C) * {factor}
"""
    fits = first_wide(compiled_from(text.format(factor=ESTIMATE_BOUND // 8)).puzzle)
    found = first_wide(compiled_from(text.format(factor=ESTIMATE_BOUND // 2)).puzzle)
    assert fits is None
    assert found is not None and found.what == "the heuristic" and found.bound == ESTIMATE_BOUND


def test_a_let_carries_its_range_into_what_uses_it() -> None:
    text = """
puzzle "lets"
counter C = 0 in 0..20
goal when C == 12
move inc: let k = C * 999999999999999, set C = C + 1 if k * 10000 >= 0
"""
    found = first_wide(compiled_from(text).puzzle)
    assert found is not None and found.pos.line == 5 and found.interval.high == 20 * 999999999999999 * 10000


def test_a_sum_over_pieces_counts_each_piece_with_its_number() -> None:
    text = """
puzzle "numbers"
pieces 1..3 "numbers"
places A, B
start at A: everyone
goal at B: everyone
move go: take ?t from A, put ?t on B if sum(p.value * {factor} for p in number) >= 0
"""
    assert first_wide(compiled_from(text.format(factor=1000)).puzzle) is None
    found = first_wide(compiled_from(text.format(factor=999999999999999999)).puzzle)
    assert found is not None and found.interval.high >= KERNEL_BOUND


@pytest.mark.skipif(not installed(), reason="numba is not installed")
def test_the_kernel_declines_with_the_place_and_python_answers() -> None:
    compiled = compiled_from(COUNTING.format(rule="C * 999999999999999999 > -1"))
    reason = why_not(compiled, depth_first=True)
    assert reason == (
        "the value `C * 999999999999999999` (line 6, column 7) may reach 19,999,999,999,999,999,980, past the "
        "compiled kernel's 64-bit integers (it takes values below 2**62; the Python engine has no bound)"
    )
    result = search(compiled, limits=Limits())
    assert result.status == SOLVED and result.length == 12 and not result.method.endswith("compiled")


@pytest.mark.skipif(not installed(), reason="numba is not installed")
def test_a_sum_of_costs_past_64_bits_is_left_to_python() -> None:
    compiled = compiled_from(DEAR_MOVES)
    assert why_not(compiled, depth_first=True) is None  # each cost fits: only their sum does not
    result = search(compiled, limits=Limits(), engine="compiled")
    assert result.cost == 12 * 999999999999999999 and not result.method.endswith("compiled")
