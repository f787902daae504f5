"""pytest-benchmark: puzint's search against a hand-written BFS, on the same instances.

Not part of the default test run (testpaths = ["tests"], and addopts has --benchmark-skip,
which --benchmark-only overrides). Run from the repository root with:

    /tmp/venv/bin/pytest benchmarks --benchmark-only

The instances are those of benchmarks/cases.py: frog, oshidori, white & black, and the knight
exchange (4 x 3 board, the spec's defaults; its full reachability also counts the states up to
the mirror symmetry the spec declares, as `search(..., reach=True)` always does).

Only the search is timed: each spec is loaded and compiled once, outside the timed part.
Every benchmark checks its answer against the known value and against the other solver
(computed once, untimed), and puzint's path is replayed with the hand-written moves.
"""

from __future__ import annotations

from functools import cache

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.runner import load, search
from puzint.search import SearchResult
from puzint.search.result import SOLVED

from benchmarks.cases import CASES, Case

NAMES = list(CASES)
METHODS = ["bfs", "bidirectional", "auto"]


# ---------------------------------------------------------------------------- untimed references


@cache
def compiled(name: str) -> CompiledPuzzle:
    case = CASES[name]
    return load(case.spec, case.overrides)


@cache
def puzint_shortest(name: str) -> SearchResult:
    return search(compiled(name), method="bfs")


@cache
def puzint_reach(name: str) -> SearchResult:
    return search(compiled(name), reach=True)


@cache
def handwritten_shortest(name: str) -> tuple[int | None, int]:
    case = CASES[name]
    return case.shortest(case.size)


@cache
def handwritten_reach(name: str) -> tuple[int | None, int]:
    case = CASES[name]
    return case.reachable(case.size)


def as_text(puzzle: CompiledPuzzle, state: bytes) -> str:
    """A puzint state in the hand-written notation (one symbol per cell, "_" for empty)."""
    return "".join(puzzle.puzzle.symbol(code) for code in state)


def assert_replays(case: Case, puzzle: CompiledPuzzle, result: SearchResult) -> None:
    """puzint's solution is a legal move sequence from start to goal under the hand-written rules."""
    start, goal = case.start_goal(case.size)
    state = as_text(puzzle, puzzle.start)
    assert state == start
    for _move, after in result.path:
        following = as_text(puzzle, after)
        assert following in case.successors(state), f"{state} -> {following} is not a legal move"
        state = following
    assert state == goal


# ---------------------------------------------------------------------------- shortest solution


@pytest.mark.parametrize("name", NAMES)
def test_shortest_handwritten(benchmark, name: str) -> None:
    case = CASES[name]
    benchmark.group = f"shortest {name} {case.instance}"
    length, states = benchmark(case.shortest, case.size)
    benchmark.extra_info["states"] = states
    assert length == case.length
    assert length == puzint_shortest(name).length


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", NAMES)
def test_shortest_puzint(benchmark, name: str, method: str) -> None:
    case = CASES[name]
    puzzle = compiled(name)
    benchmark.group = f"shortest {name} {case.instance}"
    result = benchmark(search, puzzle, method=method)
    benchmark.extra_info["states"] = result.states
    benchmark.extra_info["method"] = result.method
    assert result.status == SOLVED
    assert result.length == case.length
    assert result.length == handwritten_shortest(name)[0]
    if method == "auto":
        assert result.method == "bidirectional"  # one goal state, invertible moves
    else:
        assert result.method == method
    assert_replays(case, puzzle, result)


# ---------------------------------------------------------------------------- full reachability


@pytest.mark.parametrize("name", NAMES)
def test_reach_handwritten(benchmark, name: str) -> None:
    case = CASES[name]
    benchmark.group = f"reach {name} {case.instance}"
    goal_depth, reachable = benchmark(case.reachable, case.size)
    benchmark.extra_info["states"] = reachable
    assert reachable == case.reachable_states
    assert reachable == puzint_reach(name).reachable
    assert goal_depth == case.length
    assert goal_depth == puzint_reach(name).length


@pytest.mark.parametrize("name", NAMES)
def test_reach_puzint(benchmark, name: str) -> None:
    case = CASES[name]
    puzzle = compiled(name)
    benchmark.group = f"reach {name} {case.instance}"
    result = benchmark(search, puzzle, reach=True)
    benchmark.extra_info["states"] = result.reachable
    goal_depth, reachable = handwritten_reach(name)
    assert result.reachable == case.reachable_states
    assert result.reachable == reachable
    assert result.length == case.length
    assert result.length == goal_depth
    assert_replays(case, puzzle, result)
