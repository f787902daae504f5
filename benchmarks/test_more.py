"""pytest-benchmark: puzint against hand-written solvers on the jealous husbands (river
crossing, with and without an island) and the numbers on a circle (count all solutions).

Not part of the default test run (testpaths = ["tests"], and addopts has --benchmark-skip,
which --benchmark-only overrides). Run from the repository root with:

    /tmp/venv/bin/pytest benchmarks/test_more.py --benchmark-only

Only the search is timed: each spec is loaded and compiled once, outside the timed part.
Every benchmark checks its answer against the known value and against the other solver
(computed once, untimed); puzint's river-crossing solutions are replayed with the hand-written
moves, and its number-circle solutions are compared one by one with the hand-written ones.
The number circle with n = 14 (about a minute in puzint) is only in benchmarks/report_more.py.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.render.data import placed
from puzint.runner import load, search
from puzint.search import Limits, SearchResult
from puzint.search.result import NO_SOLUTION, SOLVED
from puzint.solutions import AllSolutions, enumerate_solutions

from benchmarks import handwritten_more as hw

SPECS = Path(__file__).resolve().parent.parent / "specs"
JEALOUS = {case.name: case for case in hw.JEALOUS_CASES}
CIRCLE_SMALL = [4, 6, 8, 10]
CIRCLE_BENCH = 12
SLOW_ROUNDS = 3  # the n = 12 count takes about a second in puzint


# ---------------------------------------------------------------------------- untimed references


@cache
def jealous_compiled(name: str) -> CompiledPuzzle:
    return load(SPECS / "jealous_husbands.puz", JEALOUS[name].overrides)


def jealous_puzint(name: str) -> SearchResult:
    return search(jealous_compiled(name), reach=JEALOUS[name].reach)


@cache
def jealous_handwritten(name: str) -> tuple[int | None, int]:
    return JEALOUS[name].solve()


@cache
def circle_compiled(n: int) -> CompiledPuzzle:
    return load(SPECS / "number_circle.puz", {"n": str(n)})


def circle_puzint(n: int) -> AllSolutions:
    return enumerate_solutions(circle_compiled(n), Limits(), keep=False)


def as_handwritten(case: hw.JealousCase, puzzle: CompiledPuzzle, state: bytes) -> object:
    """A puzint state (the boat's place, and how many of each person H1..Hn, W1..Wn each
    place holds) in the hand-written notation of the case."""
    places = [p.name for p in puzzle.puzzle.places]
    decoded = puzzle.decode(state)
    people = [next(p for p, bag in enumerate(decoded.places) if bag[i]) for i in range(2 * case.couples)]
    boat = decoded.counters[0]
    state = bytes([boat])
    if case.island == "none":
        right = places.index("right")
        mask = sum(1 << i for i, place in enumerate(people) if place == right)
        return mask | (state[0] == right) << (2 * case.couples)
    order = [places.index(name) for name in ("left", "island", "right")]  # hand-written place numbers
    masks = [sum(1 << i for i, place in enumerate(people) if place == p) for p in order]
    return (order.index(state[0]), *masks)


def assert_replays(case: hw.JealousCase, puzzle: CompiledPuzzle, result: SearchResult) -> None:
    """puzint's solution is a legal move sequence from start to goal under the hand-written rules."""
    if case.island == "none":
        start, goal = hw.two_bank_start_goal(case.couples)
        successors = hw.two_bank_successors(case.couples, case.seats)
    else:
        start, goal = hw.island_start_goal(case.couples)
        successors = hw.island_successors(case.couples, case.seats, case.island)  # type: ignore[assignment]
    state = as_handwritten(case, puzzle, puzzle.start)
    assert state == start
    for _move, after in result.path:
        following = as_handwritten(case, puzzle, after)
        assert following in successors(state), f"{state} -> {following} is not a legal move"  # type: ignore[arg-type]
        state = following
    assert state == goal


# ---------------------------------------------------------------------------- jealous husbands


@pytest.mark.parametrize("name", list(JEALOUS))
def test_jealous_handwritten(benchmark, name: str) -> None:
    case = JEALOUS[name]
    benchmark.group = f"jealous husbands: {name}"
    length, states = benchmark(case.solve)
    benchmark.extra_info["states"] = states
    assert length == case.length
    assert states == case.states
    assert length == jealous_puzint(name).length
    if case.reach:
        assert states == jealous_puzint(name).reachable


@pytest.mark.parametrize("name", list(JEALOUS))
def test_jealous_puzint(benchmark, name: str) -> None:
    case = JEALOUS[name]
    puzzle = jealous_compiled(name)
    benchmark.group = f"jealous husbands: {name}"
    result = benchmark(search, puzzle, reach=case.reach)
    benchmark.extra_info["states"] = result.states
    length, states = jealous_handwritten(name)
    assert result.length == case.length
    assert result.length == length
    if case.length is None:
        assert result.status == NO_SOLUTION
        assert result.reachable == case.states == states
    else:
        assert result.status == SOLVED
        assert_replays(case, puzzle, result)


# ---------------------------------------------------------------------------- numbers on a circle


@pytest.mark.parametrize("n", CIRCLE_SMALL)
def test_circle_small_handwritten(benchmark, n: int) -> None:
    benchmark.group = f"number circle n={n}"
    count = benchmark(hw.number_circle_count, n)
    assert count == hw.NUMBER_CIRCLE_COUNTS[n]
    assert count == hw.number_circle_count_pruned(n) == len(hw.number_circle_solutions(n))


@pytest.mark.parametrize("n", CIRCLE_SMALL)
def test_circle_small_puzint(benchmark, n: int) -> None:
    benchmark.group = f"number circle n={n}"
    report = benchmark(circle_puzint, n)
    assert report.count == hw.NUMBER_CIRCLE_COUNTS[n]
    # the same solutions, and the same search: one state per number placed, 0 included
    solutions, moves = hw.number_circle_nodes(n)
    assert report.states == moves + solutions
    compiled = circle_compiled(n)
    listed = enumerate_solutions(compiled, Limits(), keep=True).solutions
    assert sorted(tuple(placed(compiled, path)) for path in listed) == sorted(hw.number_circle_solutions(n))


def test_circle_handwritten(benchmark) -> None:
    n = CIRCLE_BENCH
    benchmark.group = f"number circle n={n}"
    count = benchmark.pedantic(hw.number_circle_count, args=(n,), rounds=SLOW_ROUNDS * 2, iterations=1)
    assert count == hw.NUMBER_CIRCLE_COUNTS[n]


def test_circle_puzint(benchmark) -> None:
    n = CIRCLE_BENCH
    circle_compiled(n)  # compile outside the timed part
    benchmark.group = f"number circle n={n}"
    report = benchmark.pedantic(circle_puzint, args=(n,), rounds=SLOW_ROUNDS, iterations=1)
    benchmark.extra_info["states"] = report.states
    assert report.status == SOLVED
    assert report.count == hw.NUMBER_CIRCLE_COUNTS[n]
    solutions, moves = hw.number_circle_nodes(n)
    assert report.count == solutions
    assert report.states == moves + solutions
