"""The Python API gives the same answers, and the same data, as the command line."""

from __future__ import annotations

import json
from pathlib import Path

import puzint
import pytest
from puzint.cli import main

ROOT = Path(__file__).resolve().parent.parent
FROG = ROOT / "specs" / "frog.puz"


def test_solve_a_catalogue_spec_by_name_with_parameters() -> None:
    result = puzint.solve("frog", n=4)
    assert (result.status, result.length, result.solved) == ("solved", 24, True)
    assert result.moves[0] == puzint.Move("slide", "B", "4", "5", (puzint.Mover("B", "4", "5"),), "BBB_BWWWW")


def test_the_result_is_the_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    result = puzint.solve(puzint.load(FROG), count=True)
    assert main(["run", str(FROG), "--count", "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    for varying in ("seconds",):
        printed.pop(varying), result.data.pop(varying)
    assert result.data == printed
    assert result.count == 2 and len(result.moves) == 15


def test_a_spec_from_text_and_all_solutions() -> None:
    puzzle = puzint.load(text=(ROOT / "specs" / "queens.puz").read_text(), params={"n": 6})
    assert puzzle.params["n"] == 6
    result = puzint.solve(puzzle)
    assert result.status == "solved" and result.data["count_in_all"] == 4 and len(result.solutions) == 1


def test_no_solution_and_limits_are_results_not_exceptions() -> None:
    assert puzint.solve("jealous_husbands", couples=4).status == "no-solution"
    stopped = puzint.solve("frog", n=8, method="bfs", max_states=100)
    assert stopped.status == "limit" and stopped.limit == "state limit of 100 reached"


def test_bad_input_raises_spec_error_with_the_command_lines_message() -> None:
    with pytest.raises(puzint.SpecError) as caught:
        puzint.load("frog", n=0)
    assert (
        caught.value.render()
        .splitlines()[0]
        .endswith("frog.puz:5:9: there must be at least one frog of each colour (with n=0)")
    )
    with pytest.raises(puzint.SpecError) as caught:
        puzint.load(text="board line 3\npiece A\nstart A _ Z\n", spec="mine.puz")
    assert caught.value.render().startswith("mine.puz:3:11: unknown piece 'Z'")


def test_every_shortest_solution_with_its_moves() -> None:
    result = puzint.solve("frog", n=2, all=True)
    assert result.count == 2 and result.length == 8 and result.solutions == ("WW_BB", "WW_BB")
    first, second = result.solution_moves
    assert len(first) == len(second) == 8 and first != second
    assert {first[0].piece, second[0].piece} == {"B", "W"}
