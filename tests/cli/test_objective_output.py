"""A filling's objective as the command says it: the best value named as the spec names it,
in the text and in the JSON, and the questions it refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from puzint.cli import main

ROOT = Path(__file__).resolve().parents[2]
SEND_MOST = str(ROOT / "specs" / "send_most_money.puz")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_text_names_the_best_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", SEND_MOST, "--engine", "python")
    assert code == 0
    assert "S=9 | E=7 | N=8 | D=2 | M=1 | O=0 | T=4 | Y=6" in out
    assert "S=9 | E=7 | N=8 | D=4 | M=1 | O=0 | T=2 | Y=6" in out
    assert "2 solutions · largest MONEY = 10876 · " in " ".join(out.split())


def test_the_json_carries_the_objective(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", SEND_MOST, "--engine", "python", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["count"] == 2
    assert data["objective"] == {"sense": "maximize", "name": "MONEY", "value": 10876}
    assert {s["filled"]["D"] for s in data["solutions"]} == {2, 4}


def test_a_count_says_the_best_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", SEND_MOST, "--engine", "python", "--count", "--format", "json")
    data = json.loads(out)
    assert (code, data["count"], data["objective"]["value"], data["solutions"]) == (0, 2, 10876, [])


def test_search_any_says_whether_its_solution_is_the_only_one_of_that_value(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "any.puz"
    spec.write_text(Path(SEND_MOST).read_text(encoding="utf-8") + "search any\n", encoding="utf-8")
    code, out, _ = run(capsys, "run", str(spec), "--engine", "python")
    assert code == 0
    assert "solved · largest MONEY = 10876 · not the only solution of that value ·" in " ".join(out.split())
    code, out, _ = run(capsys, "run", str(spec), "--engine", "python", "--format", "json")
    assert json.loads(out)["objective"]["value"] == 10876 and json.loads(out)["unique"] is False


def test_no_solution_is_said_as_no_solution(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "none.puz"
    spec.write_text('puzzle "none"\nfill a, b with 0..3\nrule: a + b == 9\nmaximize a * b\n', encoding="utf-8")
    code, out, _ = run(capsys, "run", str(spec), "--engine", "python")
    assert code == 4 and "no solution: every possibility explored" in out
    code, out, _ = run(capsys, "run", str(spec), "--engine", "python", "--format", "json")
    assert json.loads(out)["objective"] == {"sense": "maximize", "name": "a * b", "value": None}


def test_reach_asks_of_partial_fillings_and_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", SEND_MOST, "--reach")
    assert code == 2
    assert err.strip() == (
        "puzint: --reach asks of the partial fillings (the filling as moves), and `maximize` chooses among "
        "complete ones: ask for the solutions with the largest MONEY (the default), or --count"
    )


def test_an_expected_optimum_where_there_is_no_objective_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "more.puz"
    spec.write_text((ROOT / "specs" / "send_more_money.puz").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "more.yaml").write_text("cases:\n  - solutions: 1\n    optimum: 10652\n", encoding="utf-8")
    code, _, err = run(capsys, "check", str(spec))
    assert code == 2
    assert "more.yaml:3:5: optimum: this spec has no objective (`maximize` or `minimize`)" in err


def test_a_game_a_graph_or_a_replay_which_judge_by_the_rules_alone_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    why = "judges a filling by its rules, and this spec asks with `maximize` for those of the largest MONEY"
    code, _, err = run(capsys, "play", SEND_MOST)
    assert code == 2 and err.strip() == f"puzint: puzint play {why}: puzint run lists them"
    code, _, err = run(capsys, "graph", SEND_MOST)
    assert code == 2 and err.strip() == f"puzint: puzint graph {why}: puzint run lists them"
    moves = tmp_path / "x.moves"
    moves.write_text("\n", encoding="utf-8")
    code, _, err = run(capsys, "run", SEND_MOST, "--replay", str(moves))
    assert code == 2 and err.strip() == f"puzint: --replay {why}: puzint run lists them"


def test_the_playground_refuses_a_move_and_names_the_best_value() -> None:
    from puzint.serve.worker import Worker

    worker = Worker(lambda message: None)
    spec = {"text": Path(SEND_MOST).read_text(encoding="utf-8"), "filename": "send_most_money.puz"}
    played = worker.run(1, "play", {**spec, "state": None, "index": 0})
    assert played == {
        "refused": "playing judges a filling by its rules, and this spec asks with `maximize` for those of the "
        "largest MONEY: puzint run lists them"
    }
    solved = worker.run(2, "solve", spec)
    assert isinstance(solved, dict) and solved["said"] == "2 solutions listed, largest MONEY = 10876"
