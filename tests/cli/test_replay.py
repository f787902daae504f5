"""`puzint run SPEC --replay FILE`: a solution file checked, drawn, and compared with the
shortest; exit 0 at the goal, 1 short of it, 2 for a move that cannot be made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from puzint.cli import main

from ..play.test_record import JEALOUS


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_solution_that_reaches_the_goal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    moves = tmp_path / "jealous.moves"
    moves.write_text(JEALOUS)
    code, out, err = run(capsys, "run", "jealous_husbands", "--replay", str(moves))
    assert code == 0 and err == ""
    assert out.rstrip().splitlines()[-1].startswith("the goal is reached in 11 moves · as short as can be (")
    code, out, _ = run(capsys, "run", "jealous_husbands", "--replay", str(moves), "--format", "json")
    data = json.loads(out)
    assert (code, data["status"], data["length"], data["shortest"], len(data["moves"])) == (0, "solved", 11, 11, 11)


def test_a_longer_solution_is_compared_with_the_shortest(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    moves = tmp_path / "jealous.moves"  # the classic answer with a crossing there and back first
    moves.write_text("cross H1 W1 -> right\ncross H1 W1 -> left\n" + JEALOUS)
    code, out, _ = run(capsys, "run", "jealous_husbands", "--replay", str(moves))
    assert code == 0 and "the goal is reached in 13 moves · the shortest takes 11 (" in out


def test_moves_short_of_the_goal_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    moves = tmp_path / "frog.moves"
    moves.write_text("slide B 1->2\n")
    code, out, _ = run(capsys, "run", "frog", "-p", "n=1", "--replay", str(moves))
    assert code == 1 and out.rstrip().endswith("1 move played: the goal is not reached")
    code, out, _ = run(capsys, "run", "frog", "-p", "n=1", "--replay", str(moves), "--format", "json")
    assert code == 1 and json.loads(out)["status"] == "not-at-goal"


def test_a_move_that_cannot_be_made_is_bad_input_before_anything_is_drawn(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    moves = tmp_path / "frog.moves"
    moves.write_text("slide B 1->2\nslide B 2->3\n")
    code, out, err = run(capsys, "run", "frog", "-p", "n=1", "--replay", str(moves))
    assert code == 2 and out == ""
    assert err.startswith(f"{moves}:2:1: 'slide B 2->3' is not a legal move after move 1\n")


def test_replay_refuses_the_options_of_other_questions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    moves = tmp_path / "frog.moves"
    moves.write_text("")
    code, _, err = run(capsys, "run", "frog", "--replay", str(moves), "--count")
    assert code == 2 and "--replay checks the moves of a solution file: it does not go with --count" in err
