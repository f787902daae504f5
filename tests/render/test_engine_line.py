"""`run --verbose`'s line: what it says for each outcome (answered, answered in part, stopped
while an engine searched, stopped while the kernel was still being compiled), built from
results made here, so that no test waits for a compile or a clock; and one real run, stopped
by a state limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.cli import main
from puzint.render.engine_line import engine_line
from puzint.search.limits import COMPILING, COMPILING_METHOD
from puzint.search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from puzint.solutions import AllSolutions

from tests.conftest import SPECS


def test_an_answer_names_the_engine_and_its_method() -> None:
    result = SearchResult(SOLVED, 10, method="bfs, compiled", engine="compiled")
    result.tried_first, result.tried_first_stopped = "python", "not finished in 0.3 s"
    assert engine_line(result) == (
        "puzint: answered by compiled (bfs, compiled); python was tried first: not finished in 0.3 s"
    )


def test_no_solution_is_an_answer_too() -> None:
    result = SearchResult(NO_SOLUTION, 10, method="bfs", engine="python")
    assert engine_line(result) == "puzint: answered by python (bfs)"


def test_a_limit_met_while_the_kernel_compiled_says_no_engine_answered() -> None:
    result = SearchResult(
        LIMIT, 0, limit_reason="time limit of 1 s reached" + COMPILING, method=COMPILING_METHOD, engine="compiled"
    )
    assert engine_line(result) == (
        "puzint: no engine answered: compiled was still being compiled when the run stopped (time limit of 1 s reached)"
    )


def test_a_race_stopped_while_its_copy_compiled_says_so_too() -> None:
    """The race's stop (plan.sides: no method) carries the compile in its reason (race.answer)."""
    result = SearchResult(LIMIT, 0, limit_reason="interrupted" + COMPILING, method="", engine="compiled")
    result.tried_first, result.tried_first_stopped = "python", "not finished 0.3 s after cpsat, run beside it, started"
    assert engine_line(result) == (
        "puzint: no engine answered: compiled was still being compiled when the run stopped (interrupted); "
        "python was tried first: not finished 0.3 s after cpsat, run beside it, started"
    )


def test_a_limit_met_while_an_engine_searched_says_no_engine_answered() -> None:
    result = SearchResult(LIMIT, 500, limit_reason="time limit of 2 s reached", method="bfs", engine="python")
    assert engine_line(result) == (
        "puzint: no engine answered: python was searching (bfs) when the run stopped (time limit of 2 s reached)"
    )


def test_a_listing_stopped_part_way_says_how_many_it_listed() -> None:
    report = AllSolutions(status=LIMIT, count=3, limit_reason="state limit of 9 reached", method="fill search")
    assert engine_line(report) == (
        "puzint: no engine answered in full (3 solution(s) listed): python was searching (fill search) "
        "when the run stopped (state limit of 9 reached)"
    )


def test_a_solution_whose_uniqueness_a_limit_left_open_is_answered_in_part() -> None:
    result = SearchResult(SOLVED, 84, method="fill search", engine="python", unique_unknown="state limit of 84 reached")
    assert engine_line(result) == (
        "puzint: answered in part by python (fill search): whether the solution is the only one is not known "
        "(state limit of 84 reached)"
    )


def test_a_run_stopped_by_a_state_limit_is_not_said_to_be_answered(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", str(SPECS / "klotski.puz"), "--engine", "python", "--max-states", "100", "--verbose"]
    assert main(argv) == 3
    said = capsys.readouterr().err.splitlines()
    assert said[0] == (
        "puzint: no engine answered: python was searching (bfs) when the run stopped (state limit of 100 reached)"
    )
    assert said[1:] == [
        "puzint: auto derived no heuristic: the start's pieces can be arranged on the cells in "
        "87,995,587,680,000 ways; no one-piece"
        " tables (the move shift is not a rewrite of cells); no pattern databases (pattern databases need every"
        " move to be a plain rewrite (a pattern -> pattern, with no condition, action or cost), and 'shift' is a"
        " slide)"
    ]


def test_python_run_alone_because_the_others_refused_says_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Where the engines raced beside Python all refuse the puzzle, `--verbose` names each with
    its reason: a slow run then says what could not help."""
    spec = tmp_path / "cursor.puz"
    text = 'puzzle "cursor"\nboard line 3\npieces 1..3 "numbers"\nfill cells with 1..3\n'
    spec.write_text(text + "rule: cell(1 + cell(1) % 3) == 2\n")
    assert main(["run", str(spec), "--verbose"]) == 0
    said = capsys.readouterr().err.splitlines()
    assert said[0] == (
        "puzint: answered by python (fill search); chosen at once: no other engine can: compiled (the kernel's fill"
        " search cannot say a rule that may read anything of the filling: `cell(1 + cell(1) % 3) == 2` (line 5,"
        " column 7)); cpsat (the constraint solver cannot say a cell that is only known during the search: `cell`"
        " (line 5, column 7))"
    )
