"""pytest-benchmark: amida-kuji, puzint's search against a hand-written BFS (benchmarks/handwritten_amida.py).

Not part of the default test run (testpaths = ["tests"], and addopts has --benchmark-skip,
which --benchmark-only overrides). Run from the repository root with:

    /tmp/venv/bin/pytest benchmarks/test_amida.py --benchmark-only

The cases:

- full reachability of S9: every row of 9 labels, 362,880 states (puzint: `search(..., reach=True)`
  on the bottom row IHGFEDCBA, which is also the deepest one, 36 lines from the top row);
- the shortest ladder for the bottom row JFBHIADEGC: 28 lines, its number of inversions
  (hand-written BFS against puzint's plain BFS, bidirectional BFS and A* with the spec's
  `heuristic inversions()`).

The one-sided BFS searches of JFBHIADEGC store about 3 million states and take several seconds
each, so they run a single round; S10 reachability (3,628,800 states) is left to
benchmarks/report_amida.py, which runs it once per solver.

Only the search is timed: each spec is loaded and compiled once, outside the timed part.
Every benchmark checks its answer (the length is the number of inversions, the reachable count
is n!), and puzint's ladder is replayed with the hand-written moves.
"""

from __future__ import annotations

from functools import cache
from math import factorial
from pathlib import Path

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.runner import load, search
from puzint.search import SearchResult
from puzint.search.result import SOLVED

from benchmarks import handwritten_amida as hw

SPEC = Path(__file__).resolve().parent.parent / "specs" / "amida.puz"
GOAL = "JFBHIADEGC"  # 28 inversions
LENGTH = 28
S9 = "IHGFEDCBA"  # reversed: the deepest row, 36 lines
SLOW = {"rounds": 1, "iterations": 1, "warmup_rounds": 0}  # ~3 million states per search
MEDIUM = {"rounds": 3, "iterations": 1, "warmup_rounds": 0}


@cache
def compiled(bottom: str) -> CompiledPuzzle:
    return load(SPEC, {"bottom": bottom})


def as_text(puzzle: CompiledPuzzle, state: bytes) -> str:
    """A puzint state as a row of labels, as the hand-written solver writes it."""
    return "".join(puzzle.puzzle.symbol(code) for code in state)


def assert_ladder(puzzle: CompiledPuzzle, result: SearchResult, bottom: str) -> None:
    """puzint's solution is a ladder of adjacent swaps from the top row to `bottom`."""
    assert as_text(puzzle, puzzle.goal_state) == bottom
    row = as_text(puzzle, puzzle.start)
    assert row == hw.top_row(len(bottom))
    for _move, after in result.path:
        following = as_text(puzzle, after)
        assert following in hw.successors(row), f"{row} -> {following} is not one horizontal line"
        row = following
    assert row == bottom


# ---------------------------------------------------------------------------- full reachability, S9


def test_reach_s9_handwritten(benchmark) -> None:
    benchmark.group = "reach S9 (362,880 states)"
    reachable, depth = benchmark.pedantic(hw.reachable, args=(9,), **MEDIUM)
    benchmark.extra_info["states"] = reachable
    assert reachable == factorial(9) == 362_880
    assert depth == hw.inversions(S9) == 36


def test_reach_s9_puzint(benchmark) -> None:
    puzzle = compiled(S9)
    benchmark.group = "reach S9 (362,880 states)"
    result = benchmark.pedantic(search, args=(puzzle,), kwargs={"reach": True}, **MEDIUM)
    benchmark.extra_info["states"] = result.reachable
    assert result.reachable == factorial(9) == 362_880
    assert result.length == hw.inversions(S9) == 36
    assert_ladder(puzzle, result, S9)


# ---------------------------------------------------------------------------- shortest ladder, JFBHIADEGC


def test_shortest_handwritten(benchmark) -> None:
    benchmark.group = f"shortest {GOAL} ({LENGTH} lines)"
    path, states = benchmark.pedantic(hw.shortest, args=(GOAL,), **SLOW)
    benchmark.extra_info["states"] = states
    assert path is not None
    assert len(path) == hw.inversions(GOAL) == LENGTH
    assert hw.apply(hw.top_row(len(GOAL)), path) == GOAL


@pytest.mark.parametrize(
    ("method", "label", "rounds"),
    [("bfs", "bfs", SLOW), ("bidirectional", "bidirectional", MEDIUM), ("auto", "A*", None)],
    ids=["bfs", "bidirectional", "astar"],
)
def test_shortest_puzint(benchmark, method: str, label: str, rounds: dict[str, int] | None) -> None:
    puzzle = compiled(GOAL)
    benchmark.group = f"shortest {GOAL} ({LENGTH} lines)"
    if rounds is None:  # A*: a fraction of a millisecond, let pytest-benchmark calibrate
        result = benchmark(search, puzzle, method=method)
    else:
        result = benchmark.pedantic(search, args=(puzzle,), kwargs={"method": method}, **rounds)
    benchmark.extra_info["states"] = result.states
    benchmark.extra_info["method"] = result.method
    assert result.status == SOLVED
    assert result.method == label
    assert result.length == hw.inversions(GOAL) == LENGTH
    assert_ladder(puzzle, result, GOAL)
