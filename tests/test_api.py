"""The Python API gives the same answers, and the same data, as the command line."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import puzint
import pytest
from puzint.cli import main
from puzint.search import Limits

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


def test_reach_gives_the_depth_and_from_the_goal_the_hardest_starts() -> None:
    forward = puzint.solve("frog", reach=True)
    assert (forward.depth, forward.layers, forward.farthest) == (15, tuple(forward.data["layers"]), "WWW_BBB")
    backward = puzint.solve("frog", reach=True, from_goal=True)
    assert backward.depth == 15 and backward.data["from"] == "goal" and sum(backward.layers or ()) == 72
    with pytest.raises(ValueError, match="from_goal=True explores backwards from the goal: it goes with reach=True"):
        puzint.solve("frog", from_goal=True)


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


@pytest.mark.parametrize(
    ("asked", "argv", "said"),
    [
        (
            {"count": True, "all": True},
            ["--count", "--all"],
            "{count} counts the shortest solutions and {all} lists them: give one of them",
        ),
        ({"reach": True, "all": True}, ["--reach", "--all"], "{reach} and {all} ask two different questions"),
        (
            {"method": "idastar", "reach": True},
            ["--method", "idastar", "--reach"],
            "{method} picks how one shortest solution is searched; counting and reaching explore every layer",
        ),
        ({"limit": 3}, ["--limit", "3"], "{limit} stops a listing of all solutions: it goes with {all}"),
        (
            {"engine": "compiled", "all": True},
            ["--engine", "compiled", "--all"],
            "{engine} cannot run this: every shortest solution and trajectories are found in Python",
        ),
    ],
)
def test_the_api_refuses_what_the_command_line_refuses(
    capsys: pytest.CaptureFixture[str], asked: dict[str, object], argv: list[str], said: str
) -> None:
    api = {"count": "count=True", "all": "all=True", "reach": "reach=True", "method": "method='idastar'"}
    api |= {"limit": "limit", "engine": "engine='compiled'"}
    cli = {"count": "--count", "all": "--all", "reach": "--reach", "method": "--method idastar"}
    cli |= {"limit": "--limit K", "engine": "--engine compiled"}
    with pytest.raises(ValueError) as refused:
        puzint.solve("frog", **asked)  # type: ignore[arg-type]
    assert str(refused.value).startswith(said.format(**api))
    assert main(["run", str(FROG), *argv]) == 2
    assert capsys.readouterr().err.startswith("puzint: " + said.format(**cli))


@pytest.mark.parametrize(
    ("asked", "error", "message"),
    [
        ({"all": True, "limit": 0}, ValueError, "limit must be at least 1 solution, got 0"),
        ({"all": True, "limit": -2}, ValueError, "limit must be at least 1 solution, got -2"),
        ({"all": True, "limit": 2.5}, TypeError, "limit is a whole number of solutions, got 2.5"),
        ({"max_states": 0}, ValueError, "max_states must be at least 1 state, got 0"),
        ({"interrupt": "ignore"}, ValueError, "interrupt must be one of raise, result, got 'ignore'"),
    ],
)
def test_values_the_command_line_could_not_be_given_are_refused_by_name(
    asked: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as refused:
        puzint.solve("frog", **asked)  # type: ignore[arg-type]
    assert str(refused.value) == message


def test_count_on_a_search_all_spec_counts_its_solutions_as_the_command_line_does() -> None:
    result = puzint.solve("queens", n=6, count=True)
    assert (result.count, result.data["count_in_all"], result.solutions) == (1, 4, ())


def test_the_result_says_uniqueness_and_the_count_in_all_as_fields() -> None:
    classes = puzint.solve("queens", n=6, count=True)
    assert (classes.count, classes.count_in_all) == (1, 4)
    moves = puzint.solve("frog", n=2, count=True)
    assert (moves.count, moves.count_in_all, moves.unique) == (2, 2, None)
    only = puzint.solve(puzint.load(text=(ROOT / "specs" / "sudoku.puz").read_text() + "search any\n"))
    assert only.solved and only.unique is True and only.unique == only.data["unique"]


def _interrupt_at_the_first_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C, as the terminal sends it, while the search runs: SIGINT to this process at the
    search's first poll of its limits."""
    poll = Limits.check
    sent: list[bool] = []

    def check(self: Limits, *args: object, **kwargs: object) -> int:
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)
        return poll(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Limits, "check", check)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_solve_raises_keyboard_interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    _interrupt_at_the_first_check(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        puzint.solve("frog", n=8, method="bfs", engine="python")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_during_solve_is_a_result_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    _interrupt_at_the_first_check(monkeypatch)
    result = puzint.solve("frog", n=8, method="bfs", engine="python", interrupt="result")
    assert (result.status, result.limit) == ("limit", "interrupted")


def test_text_is_held_to_the_bounds_of_a_file_with_the_same_messages(tmp_path: Path) -> None:
    for text in ("board line 3\n# " + "a" * 10_000_000 + "\n", "board line 3\n# " + "a" * 20_000 + "\n"):
        path = tmp_path / "big.puz"
        path.write_text(text)
        with pytest.raises(puzint.SpecError) as from_file:
            puzint.load(path)
        with pytest.raises(puzint.SpecError) as from_text:
            puzint.load(text=text, spec=str(path))
        assert from_text.value.render() == from_file.value.render()


def test_text_that_is_not_a_string_is_a_type_error() -> None:
    with pytest.raises(TypeError) as refused:
        puzint.load(text=12)  # type: ignore[arg-type]
    assert str(refused.value) == "the text of a spec is a str, got int"


@pytest.mark.parametrize("line_end", ["\r", "\r\n"])
def test_text_with_the_line_ends_of_old_macs_and_windows(line_end: str) -> None:
    text = FROG.read_text().replace("\n", line_end)
    assert puzint.solve(puzint.load(text=text)).length == 15
    with pytest.raises(puzint.SpecError) as refused:
        puzint.load(text=text.replace("start B*n _ W*n", "start B*n _ X*n"), spec="frog.puz")
    assert refused.value.render().splitlines()[:2] == [
        "frog.puz:11:13: unknown piece 'X'",
        "  11 | start B*n _ X*n",
    ]


def test_play_a_puzzle_through_the_api() -> None:
    """The moves of a state, its drawing, whether it is a goal, and a solution from anywhere:
    what a notebook or a game front end needs."""
    frog = puzint.load("frog", n=1)
    start = frog.start
    assert (str(start), frog.is_goal(start)) == ("B_W", False)
    moves = frog.moves(start)
    assert [str(m) for m in moves] == ["slide ● 1 → 2", "slide ○ 3 → 2"]
    assert moves[0].movers == (puzint.Mover("B", "1", "2"),) and moves[0].state.board == "_BW"
    assert frog.draw(moves[0].state, ascii=True) == ".  B  W"
    here = moves[0].state
    rest = frog.solve(from_state=here)
    assert rest.length == 2 and rest.moves[-1].board == "W_B"
    assert puzint.solve(frog, from_state=here).length == 2 and frog.solve().length == 3
    walked = frog.replay("slide B 1->2\njump W 3->1\nslide B 2->3")
    assert frog.is_goal(walked[-1].state) and walked[0].state == here and len({start, here, moves[0].state}) == 2


def test_a_state_belongs_to_its_puzzle() -> None:
    one, other = puzint.load("frog", n=1), puzint.load("frog", n=1)
    with pytest.raises(ValueError, match="not a state of this puzzle"):
        other.moves(one.start)
    assert one.start != other.start  # the same text, but not the same puzzle


def test_forbidden_moves_name_their_rule() -> None:
    jealous = puzint.load("jealous_husbands")
    forbidden = {f.move: f for f in jealous.forbidden()}
    assert len(forbidden) == 12 and len(jealous.moves()) == 9
    assert forbidden["cross H1 W2 → right"].where == "the boat" and forbidden["cross H1 W2 → right"].line == 28


def test_dir_lists_the_public_api_before_it_is_loaded() -> None:
    listed = dir(puzint)
    assert {"load", "solve", "Puzzle", "Result", "State", "SpecError", "__version__"} <= set(listed)
    assert "TYPE_CHECKING" not in listed and "annotations" not in listed and "Any" not in listed
    assert all(callable(getattr(puzint, name)) for name in puzint.__all__ if name != "__version__")


def test_reprs_are_one_readable_line() -> None:
    frog = puzint.load("frog", n=3)
    assert repr(frog) == "<puzint.Puzzle 'Frog jump' n=3: 7 cells, 2 pieces, 4 moves>"
    assert repr(frog.compiled) == "<CompiledPuzzle 'Frog jump' n=3: 7 cells, 2 pieces, 4 moves>"
    assert repr(frog.compiled.puzzle) == "<Puzzle 'Frog jump' n=3: 7 cells, 2 pieces, 4 moves>"
    assert repr(puzint.load("farmer")).startswith("<puzint.Puzzle 'Farmer, wolf, goat and cabbage': 4 pieces, 2 places")
    shown = repr(puzint.solve(frog, count=True))
    assert shown.startswith("<puzint.Result solved length=15 count=2 states=") and "\n" not in shown


def test_reachable_comes_only_with_reach() -> None:
    crossing = puzint.load("jealous_husbands", couples=4)
    plain = puzint.solve(crossing)  # every state explored to prove there is no solution
    assert (plain.status, plain.reachable, plain.reachable_goals) == ("no-solution", None, None)
    assert "reachable" not in plain.data
    assert puzint.solve(crossing, reach=True).reachable == 44
    assert puzint.solve("frog").reachable is None


def test_a_filling_reports_what_it_filled_not_a_count_of_moves() -> None:
    any_one = puzint.solve(puzint.load(text=(ROOT / "specs" / "sudoku.puz").read_text() + "search any\n"))
    assert "length" not in any_one.data and any_one.length is None
    assert len(any_one.data["filled"]) == 81 - 21 and any_one.data["filled"]["r1c2"] == "1"
    listed = puzint.solve("send_more_money")
    assert listed.data["solutions"][0]["filled"] == {"S": 9, "E": 5, "N": 6, "D": 7, "M": 1, "O": 0, "R": 8, "Y": 2}


def test_a_filling_s_objective_gives_its_best_value() -> None:
    """SEND + MOST = MONEY, the largest MONEY: 10876, twice (tests/plain/cryptarithm.py)."""
    listed = puzint.solve("send_most_money", engine="python")
    assert (listed.optimum, listed.count, len(listed.solutions)) == (10876, 2, 2)
    assert listed.data["objective"] == {"sense": "maximize", "name": "MONEY", "value": 10876}
    assert puzint.solve("frog").optimum is None
