"""pytest-benchmark: logic puzzles (fillings) in puzint against plain hand-written solvers and
CP-SAT models written directly (benchmarks/handwritten_logic.py), one group per puzzle.

Not part of the default test run. Run from the repository root with:

    pytest benchmarks/test_logic.py --benchmark-enable --benchmark-only -o addopts=""

Only the search is timed: each spec is loaded and compiled once, outside the timed part, and
one untimed run loads the kernel and OR-tools first. Every benchmark checks its answer. The
ratios in one table, with the solver's start-up apart: benchmarks/report_logic.py.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.runner import load, search
from puzint.search import Limits
from puzint.solutions import enumerate_solutions
from tests.conftest import compiled_from

from benchmarks import handwritten_logic as hw
from benchmarks.logic_specs import without_symmetry

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
SUDOKU = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
COUNTS = {  # group: (spec, parameters, solutions, the hand-written counter)
    "Latin squares 5 x 5": (SPECS / "latin_square.puz", {"n": "5"}, 161_280, lambda: hw.latin_count(5)),
    "queens n = 12": (SPECS / "queens.puz", {"n": "12"}, 14_200, lambda: hw.queens_count(12)),
    "SEND + MORE = MONEY": (SPECS / "send_more_money.puz", {}, 1, lambda: len(hw.send_more_money())),
}


@cache
def sudoku_any() -> CompiledPuzzle:
    compiled = compiled_from((SPECS / "sudoku.puz").read_text() + "search any\n")
    assert search(compiled).unique is True  # untimed: loads OR-tools
    return compiled


@cache
def compiled(group: str) -> CompiledPuzzle:
    spec, params, expected, _ = COUNTS[group]
    puzzle = without_symmetry(spec, params)
    assert enumerate_solutions(puzzle, Limits(), keep=False).count == expected  # untimed: loads the kernel
    return puzzle


def test_sudoku_puzint(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = "Sudoku: the solution, and that it is unique"
    result = benchmark(search, sudoku_any())
    assert result.unique is True and result.engine == "cpsat"


def test_sudoku_handwritten(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = "Sudoku: the solution, and that it is unique"
    assert len(benchmark(hw.sudoku_solutions, SUDOKU)) == 1


def test_sudoku_cpsat_direct(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = "Sudoku: the solution, and that it is unique"
    solutions, _, _ = benchmark(hw.cpsat_sudoku, SUDOKU)
    assert len(solutions) == 1


@pytest.mark.parametrize("group", list(COUNTS))
def test_count_puzint(benchmark, group: str) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = group
    puzzle = compiled(group)
    report = benchmark(lambda: enumerate_solutions(puzzle, Limits(), keep=False))
    assert report.count == COUNTS[group][2]


@pytest.mark.parametrize("group", list(COUNTS))
def test_count_handwritten(benchmark, group: str) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = group
    assert benchmark(COUNTS[group][3]) == COUNTS[group][2]


@cache
def pentominoes() -> CompiledPuzzle:
    puzzle = load(SPECS / "pentominoes.puz", {})
    assert enumerate_solutions(puzzle, Limits(), keep=False).in_all == 9_356  # untimed: loads the kernel
    return puzzle


def test_pentominoes_puzint(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = "pentominoes 6 x 10, every tiling"
    report = benchmark.pedantic(lambda: enumerate_solutions(pentominoes(), Limits(), keep=False), rounds=3)
    assert (report.in_all, report.count) == (9_356, 2_339)


def test_pentominoes_handwritten(benchmark) -> None:  # type: ignore[no-untyped-def]
    from tests.plain import pentominoes as plain

    benchmark.group = "pentominoes 6 x 10, every tiling"
    assert benchmark.pedantic(lambda: plain.count(6, 10), rounds=1) == 9_356
