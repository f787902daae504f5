"""Placement puzzles: a hand, a cursor, action moves, and all-solutions enumeration."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.errors import SpecError
from puzint.render.data import placed
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS, compiled_from

CIRCLE = (SPECS / "number_circle.puz").read_text()
PERMUTATIONS = (SPECS / "permutations.puz").read_text()


def placement(text: str, **params: object) -> CompiledPuzzle:
    return compiled_from(text, **params)


def cells(compiled: CompiledPuzzle, state: bytes) -> list[str]:
    return [compiled.puzzle.symbol(c) for c in state[: compiled.cells]]


@pytest.mark.parametrize(("n", "count"), [(2, 1), (3, 0), (4, 2), (6, 4), (8, 24), (9, 0)])
def test_circle_counts(n: int, count: int) -> None:
    assert enumerate_solutions(placement(CIRCLE, n=n), Limits(), keep=False).count == count


def test_the_last_circle_is_opposite_the_start() -> None:
    compiled = placement(CIRCLE, n=8)
    for path in enumerate_solutions(compiled, Limits()).solutions:
        ring = cells(compiled, path[-1][1])
        assert ring[4] == "0" and sorted(int(c) for c in ring) == list(range(8))


def test_a_given_start_number_leaves_one_solution() -> None:
    compiled = placement(CIRCLE)
    starts = [cells(compiled, p[-1][1])[0] for p in enumerate_solutions(compiled, Limits()).solutions]
    assert sorted(starts) == ["1", "2", "4", "5"]
    for first in (1, 2, 4, 5):
        report = enumerate_solutions(placement(CIRCLE, first=first), Limits())
        assert report.count == 1 and cells(compiled, report.solutions[0][-1][1])[0] == str(first)


def test_reversal_keeps_one_of_each_pair() -> None:
    compiled = placement(PERMUTATIONS, m=4)
    report = enumerate_solutions(compiled, Limits())
    sequences = [tuple(placed(compiled, p)) for p in report.solutions]
    assert (report.count, report.in_all) == (12, 24) and report.symmetric
    assert all(s <= s[::-1] for s in sequences) and len(set(sequences)) == 12


def test_limit_stops_after_k_solutions() -> None:
    report = enumerate_solutions(placement(CIRCLE, n=10), Limits(), limit=5)
    assert report.count == 5 and report.stopped_at_limit and report.status == "solved"


def test_time_limit_stops_the_enumeration_cleanly() -> None:
    # n = 24: a walk of hours, stopped by the limit however fast the machine or the engine
    report = enumerate_solutions(placement(CIRCLE, n=24), Limits(timeout=0.2), keep=False)
    assert report.status == "limit" and "time limit" in (report.limit_reason or "") and report.states > 0


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "cursor at 1",
            "cursor at n + 1",
            "the cursor would start off the board (with n=6, first=0): the cells are 1..6",
        ),
        ("along clockwise", "along any", "the cursor needs one direction, not 'any'"),
        ("take ?t from hand", "take ?t from pocket", "unknown place or cell 'pocket'"),
        ("advance cursor by ?t", "advance cursor by ?u", "?u is not bound here"),
        ("cell(1) == first", "cell(1) == true", "cannot compare a cell with a condition"),
        ("cell(1) == first", "cell(0) == first", "cell(0) is off the board (cells 1..6)"),
        ("goal when hand is empty", "goal when cursor", "expected a condition here, got a cell"),
    ],
)
def test_mistakes_in_placement_specs(old: str, new: str, message: str) -> None:
    assert old in CIRCLE
    with pytest.raises(SpecError) as err:
        placement(CIRCLE.replace(old, new))
    assert message in [d.message for d in err.value.diagnostics]
