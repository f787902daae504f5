"""The puzint command: exit codes, output shapes, and errors without tracebacks."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest
import yaml
from puzint import kernel
from puzint.cli import main

ROOT = Path(__file__).resolve().parents[2]
FROG = str(ROOT / "specs" / "frog.puz")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_draws_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", FROG)
    assert code == 0 and err == ""
    assert "solved in 15 moves" in out
    assert out.count("[") == 15  # the moved piece is bracketed on each of the 15 boards
    assert "slide" in out and "jump" in out


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", FROG, "--format", "json", "--count", "--reach")
    data = json.loads(out)
    assert code == 0
    assert data["puzzle"] == "Frog jump" and data["params"] == {"n": 3}
    assert data["status"] == "solved" and data["length"] == 15 and len(data["moves"]) == 15
    assert data["count"] == 2 and data["reachable"] == 72 and data["states"] == 72
    assert isinstance(data["seconds"], float)
    first = data["moves"][0]
    assert set(first) >= {"rule", "piece", "from", "to", "board"}
    assert data["moves"][-1]["board"] == "WWW_BBB"


def test_yaml_is_the_same_data(capsys: pytest.CaptureFixture[str]) -> None:
    _, out_json, _ = run(capsys, "run", FROG, "--format", "json", "--method", "bfs")
    _, out_yaml, _ = run(capsys, "run", FROG, "--format", "yaml", "--method", "bfs")
    a, b = json.loads(out_json), yaml.safe_load(out_yaml)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", FROG, "-p", "n=2", "--format", "json")
    assert code == 0 and json.loads(out)["length"] == 8


def test_proven_no_solution_exits_4(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "stuck.puz"
    spec.write_text("board line 4\npiece B b\nstart B _ B _\ngoal _ B _ B\nmove s: B _ -> _ B along left\n")
    code, out, _ = run(capsys, "run", str(spec), "--format", "json")
    data = json.loads(out)
    assert code == 4 and data["status"] == "no-solution" and data["length"] is None
    code, out, _ = run(capsys, "run", str(spec), "--all", "--format", "json")
    assert code == 4 and json.loads(out)["count"] == 0


def test_a_shipped_spec_runs_by_its_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "run", "frog", "--format", "json")
    assert code == 0 and json.loads(out)["length"] == 15


def test_a_closed_pipe_ends_the_run_quietly_with_exit_0() -> None:
    import subprocess
    import sys

    script = "import sys; from puzint.cli import main; sys.exit(main(sys.argv[1:]))"
    argv = [sys.executable, "-c", script, "run", FROG, "-p", "n=12"]
    shell = subprocess.run(
        [
            *argv[:1],
            "-c",
            "import subprocess, sys; p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE);"
            " p.stdout.readline(); p.stdout.close(); sys.exit(p.wait())",
            *argv,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shell.returncode == 0 and shell.stderr == ""


def test_limit_exits_3_and_reports_what_it_explored(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", FROG, "-p", "n=8", "--max-states", "100", "--format", "json", "--method", "bfs")
    data = json.loads(out)
    assert code == 3 and data["status"] == "limit" and data["states"] > 100 and "state limit" in data["limit"]


def test_bad_spec_exits_2_with_a_positioned_message(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "bad.puz"
    spec.write_text("board line 3\npiece B b\nstart B _ _\ngoal _ _ B\nmove s: B _ -> _ B along north\n")
    code, out, err = run(capsys, "run", str(spec))
    assert code == 2 and out == ""
    assert err.startswith(f"{spec}:5:26: a line of 3 cells has no direction 'north'\n")
    assert "Traceback" not in err


def test_missing_file_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", "no/such/spec.puz")
    assert code == 2 and err == "no/such/spec.puz: cannot read the spec: No such file or directory\n"


@pytest.mark.parametrize("argv", [["run"], ["run", FROG, "--format", "xml"], ["run", FROG, "-p", "n"], ["frobnicate"]])
def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert run(capsys, *argv)[0] == 2


def test_check_passes_on_the_specs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(ROOT / "specs" / "white_black.puz"))
    assert code == 0 and "1 spec(s), 4 case(s): 4 passed, 0 failed" in out


def test_check_reports_a_mismatch_with_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "wb.puz").write_text((ROOT / "specs" / "white_black.puz").read_text())
    (tmp_path / "wb.yaml").write_text("cases:\n  - length: 5\n    count: 2\n")
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 1
    assert "length: expected 5, got 4" in out and "count" not in out.split("FAIL")[1]


def test_check_of_a_folder_takes_no_folder_named_like_a_spec(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for suffix in (".puz", ".yaml"):
        (tmp_path / f"wb{suffix}").write_text((ROOT / "specs" / f"white_black{suffix}").read_text())
    (tmp_path / "notes.puz").mkdir()
    code, out, err = run(capsys, "check", str(tmp_path))
    assert (code, err) == (0, "") and "1 spec(s), 4 case(s): 4 passed, 0 failed" in out


def test_check_without_expectations_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "lonely.puz").write_text((ROOT / "specs" / "white_black.puz").read_text())
    code, _, err = run(capsys, "check", str(tmp_path / "lonely.puz"))
    assert code == 2 and "lonely.yaml is missing" in err


def test_a_spec_that_is_not_there_is_said_so_and_a_shipped_one_is_found_by_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no file of these names here
    code, _, err = run(capsys, "check", "nothere.puz")
    assert code == 2 and "nothere.puz: cannot read the spec: No such file or directory" in err
    assert "yaml" not in err
    code, _, err = run(capsys, "run", "knigts")
    assert code == 2 and "knigts: cannot read the spec: No such file or directory (did you mean 'knights'?)" in err
    code, out, _ = run(capsys, "check", "white_black")
    assert code == 0 and "1 spec(s), 4 case(s): 4 passed, 0 failed" in out


def test_huge_parameters_are_refused_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", FROG, "-p", "n=100000")
    assert code == 2 and out == ""
    assert err.splitlines()[0] == (
        f"{FROG}:7:1: the board would have 200,001 cells (with n=100000); puzint takes at most 4,096"
    )


def test_a_move_table_too_large_is_refused_cleanly(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", str(ROOT / "specs" / "oshidori.puz"), "-p", "n=1500")
    assert code == 2
    assert "move pair has 9,006,001 placements on a line of 3002 cells" in err.splitlines()[0]


def test_deeply_nested_spec_is_an_error_not_a_crash(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "deep.puz"
    spec.write_text("param n = " + "(" * 5000 + "1" + ")" * 5000 + "\n")
    code, _, err = run(capsys, "run", str(spec))
    assert code == 2 and "Traceback" not in err and err.startswith(str(spec))


def test_grid_boards_are_drawn_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(ROOT / "specs" / "knights.puz"))
    assert code == 0
    assert "=>" in out and "solved in 16 moves" in out
    assert out.count("[") == 16


def test_distinct_trajectories_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "run", str(ROOT / "specs" / "knights.puz"), "--distinct", "trajectories", "--format", "json"
    )
    data = json.loads(out)["trajectories"]
    assert code == 0
    assert (data["solutions"], data["distinct"], data["distinct_up_to_symmetry"]) == (98496, 4, 2)
    assert [len(r) for r in data["representatives"]] == [16, 16]


def test_symmetry_counts_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "run", str(ROOT / "specs" / "knights.puz"), "--count", "--reach", "--format", "json")
    data = json.loads(out)
    assert (data["count"], data["count_up_to_symmetry"]) == (98496, 49248)
    assert (data["reachable"], data["reachable_up_to_symmetry"]) == (18480, 9328)


def test_river_crossing_output_lists_the_banks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(ROOT / "specs" / "jealous_husbands.puz"))
    assert code == 0 and "solved in 11 moves" in out
    assert "left" in out and "right" in out and "(boat)" in out


def test_impossible_crossing_exits_4_and_its_reach_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(ROOT / "specs" / "jealous_husbands.puz")
    code, out, _ = run(capsys, "run", spec, "-p", "couples=4", "--reach", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "no-solution" and data["reachable"] == 44 and data["moves"] == []
    code, out, _ = run(capsys, "run", spec, "-p", "couples=4", "--format", "json")
    assert code == 4 and json.loads(out)["status"] == "no-solution"


def test_places_boards_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "run", str(ROOT / "specs" / "farmer.puz"), "--format", "json")
    data = json.loads(out)
    assert data["start"] == "left: F L G C boat | right:"
    first = data["moves"][0]
    assert (first["rule"], first["from"], first["to"]) == ("cross", "left", "right")
    assert {m["piece"] for m in first["movers"]} == {"F", "G"}
    assert data["moves"][-1]["board"] == "left: | right: F L G C boat"


def test_explain_shows_forbidden_moves_and_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "run", str(ROOT / "specs" / "farmer.puz"), "--explain")
    flat = " ".join(out.split())
    assert "✗ F L → right breaks line 18 at left: farmer is here or not (goat is here and cabbage is here)" in flat


def test_all_solutions_stream_in_the_seed_layout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(ROOT / "specs" / "number_circle.puz"))
    assert code == 0
    assert "3 5 0 2 4" in out and "4 solutions" in out  # the seed's first solution, read anticlockwise


def test_all_solutions_in_json_with_a_limit(capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(ROOT / "specs" / "number_circle.puz")
    code, out, _ = run(capsys, "run", spec, "-p", "n=8", "--limit", "3", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["count"] == 3 and not data["complete"] and len(data["solutions"]) == 3
    assert data["solutions"][0]["sequence"][-1] == 0


def test_reach_says_how_far_the_farthest_state_lies_and_draws_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", FROG, "--reach", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["from"] == "start" and data["reachable"] == 72
    assert (data["depth"], sum(data["layers"]), data["farthest"]) == (15, 72, "WWW_BBB")
    code, out, _ = run(capsys, "run", FROG, "--reach")
    assert "a farthest state: 15 moves from the start" in out
    assert "states at each distance from the start (0 to 15): 1, 2, 4," in out and "depth 15" in out
    code, out, _ = run(capsys, "run", FROG, "--reach", "--from-goal")
    assert code == 0 and "72 states can reach the goal" in out and "moves from the goal" in out


def test_count_only_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(ROOT / "specs" / "number_circle.puz"), "-p", "n=10", "--count")
    assert code == 0 and "288 solutions" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["queens_moves.puz", "--method", "bfs"], "puzint: --method bfs picks how one shortest solution is searched; "),
        (["frog.puz", "--all", "--method", "bfs"], "every shortest solution is listed from the graph of all shortest"),
        (["frog.puz", "--all", "--count"], "puzint: --count counts the shortest solutions and --all lists them"),
        (["frog.puz", "--draw"], "puzint: --draw draws each of every shortest solution move by move: it goes with"),
        (["queens_moves.puz", "--draw"], "this spec's solutions (`search all`) are drawn as boards"),
        (["frog.puz", "--reach", "--all"], "puzint: --reach and --all ask two different questions: give one of them"),
        (["frog.puz", "--limit", "3"], "puzint: --limit K stops a listing of all solutions: it goes with --all"),
        (
            ["frog.puz", "--from-goal"],
            "puzint: --from-goal explores backwards from the goal: it goes with --reach alone",
        ),
        (["frog.puz", "--reach", "--count", "--from-goal"], "--from-goal explores backwards from the goal: it goes"),
        (
            ["hanoi.puz", "--reach", "--from-goal"],
            "puzint: --from-goal starts from the goal: it needs a goal that is one",
        ),
        (["queens.puz", "--reach", "--from-goal"], "--from-goal explores moves backwards: a logic puzzle has no moves"),
        (["frog.puz", "--reach", "--method", "bfs"], "puzint: --method bfs picks how one shortest solution is"),
        (["frog.puz", "--count", "--method", "astar"], "puzint: --method astar picks how one shortest solution"),
        (["peg_english.puz", "--method", "bfs"], "puzint: --method bfs does not apply: this spec asks for any"),
        (
            ["frog.puz", "--explain", "--format", "json"],
            "puzint: --explain shows, before each move of one solution, the moves a safety rule forbids in the text "
            "drawing: it does not go with --format json\n",
        ),
        (["frog.puz", "--explain", "--all"], "the moves a safety rule forbids: it does not go with --all\n"),
        (
            ["kenken.puz", "--explain"],
            "the moves a safety rule forbids: this spec fills cells and has no moves (`fill cells with`)\n",
        ),
        (
            ["queens_moves.puz", "--explain"],
            "forbids: this spec lists every solution (`search all`); ask for one with `search any`\n",
        ),
        (["jealous_husbands.puz", "-p", "island=bankz"], "island must be one of none, any, banks, got bankz"),
        (
            ["amida.puz", "--seed", "3"],
            "parameter 'seed' is set but changes nothing (with bottom=FBDEAC, n=6): no statement in use reads it",
        ),
        (["amida.puz", "-p", "bottom=CBA", "-p", "seed=3"], "parameter 'seed' is set but changes nothing"),
    ],
)
def test_options_and_values_that_would_do_nothing_are_refused(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, "run", str(ROOT / "specs" / argv[0]), *argv[1:])
    assert code == 2 and out == "" and message in err


def test_all_on_a_puzzle_of_moves_lists_every_shortest_solution(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", FROG, "--all", "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["method"] == "shortest-path graph" and data["complete"]
    assert data["length"] == 15 and data["count"] == data["count_in_all"] == 2
    assert [len(s["moves"]) for s in data["solutions"]] == [15, 15]
    assert all(s["board"] == "WWW_BBB" for s in data["solutions"])
    assert data["solutions"][0]["moves"] != data["solutions"][1]["moves"]


def test_all_as_text_is_a_move_list_per_solution_wrapped_between_moves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", FROG, "--all", "--ascii")
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("  1  "))
    assert code == 0 and lines[first].startswith("  1  W 5->4 | B 3->5 | B 2->3 | ")
    assert lines[first + 1].startswith("     B 1->3 | ") and lines[first + 2].startswith("  2  B 3->4 | W 5->3 | ")
    assert all(len(line) <= 80 for line in lines)
    assert "2 shortest solutions | 15 moves | 72 states explored" in out


def test_all_with_a_limit_tells_how_many_there_are(capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(ROOT / "specs" / "jealous_husbands.puz")
    code, out, _ = run(capsys, "run", spec, "--all", "--limit", "2", "--ascii")
    assert code == 0 and "the first 2 of 486 shortest solutions (11 moves): --limit reached" in out


def test_a_limit_on_every_solution_says_it_stopped_looking(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(ROOT / "specs" / "shidoku.puz"), "--limit", "1", "--ascii")
    assert code == 0 and "the first solution: --limit reached, no more looked for" in out
    code, out, _ = run(capsys, "run", str(ROOT / "specs" / "queens.puz"), "--limit", "2", "--ascii")
    assert "the first 2 solutions, one of each symmetry class: --limit reached, no more" in " ".join(out.split())


def test_the_seed_acts_where_the_spec_reads_it(capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(ROOT / "specs" / "amida.puz")
    goals = set()
    for seed in ("1", "2", "3"):
        code, out, _ = run(capsys, "run", spec, "-p", "bottom=random", "--seed", seed, "--format", "json")
        assert code == 0
        goals.add(json.loads(out)["moves"][-1]["board"])
    assert len(goals) > 1


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="numba is not installed")
@pytest.mark.parametrize("spec", ["queens_moves.puz -p n=6", "number_circle.puz -p n=8", "permutations.puz -p m=4"])
def test_a_search_all_listing_reads_the_same_from_the_kernel(capsys: pytest.CaptureFixture[str], spec: str) -> None:
    """The kernel lists goal states without finding their moves again: the boards shown, the
    classes and the counts are the Python engine's."""
    name, *params = spec.split()
    shown = []
    for engine in ("python", "compiled"):
        code, out, _ = run(capsys, "run", str(ROOT / "specs" / name), *params, "--engine", engine)
        method = "depth-first enumeration" + (", compiled" if engine == "compiled" else "")
        body, timed = re.fullmatch(r"(.*?)\s*[0-9.]+ s \((.*)\)\s*", out, re.DOTALL).groups()  # type: ignore[union-attr]
        assert timed == method
        shown.append((code, body))  # all but the time and the method (the summary may wrap)
    assert shown[0] == shown[1]


@pytest.mark.parametrize("engine", ["python", "compiled", "cpsat"])
def test_a_filling_without_a_solution_says_no_filling_keeps_the_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: str
) -> None:
    if engine == "cpsat" and importlib.util.find_spec("ortools") is None:
        pytest.skip("OR-tools is not installed")
    if engine == "compiled" and (not kernel.installed() or kernel.jit_disabled()):
        pytest.skip("the kernel cannot run here")
    spec = tmp_path / "none.puz"
    spec.write_text(
        'puzzle "none"\nboard grid 2 x 2\npieces 1..2 "n"\nfill cells with 1..2\n'
        "rule:\n    every l in rows, columns: all different(l)\n    r1c1.value == r2c2.value + 1\n"
        "    r1c2.value == r2c1.value + 1\nsearch any\n"
    )
    code, out, _ = run(capsys, "run", str(spec), "--engine", engine)
    assert code == 4
    assert "no solution: no filling keeps every rule" in out


def test_one_state_is_one_state(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "there.puz"
    spec.write_text("board line 2\npiece A a\nstart A _\ngoal A _\nmove go: A _ -> _ A along right\n")
    code, out, _ = run(capsys, "run", str(spec))
    assert code == 0 and "solved in 0 moves · 1 state explored" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--method", "astar", "--heuristic", "spec"], "puzint: --method astar needs a `heuristic` line in the spec\n"),
        (
            ["--engine", "cpsat"],
            "puzint: --engine cpsat cannot run this: the constraint solver answers fillings (logic puzzles), "
            "and this puzzle has moves\n",
        ),
    ],
)
def test_a_question_the_spec_cannot_answer_is_refused_before_the_heading(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = run(capsys, "run", FROG, *argv)
    assert (code, out, err) == (2, "", said)
    code, out, err = run(capsys, "run", str(ROOT / "specs" / "sokoban.puz"), "--method", "bidirectional")
    assert code == 2 and out == "" and "--method bidirectional needs a goal that is one state" in err


EIGHT_UNGUIDED = (ROOT / "specs" / "eight_puzzle.puz").read_text().replace("heuristic displacement()\n", "")


def test_a_method_named_with_no_heuristic_written_runs_with_the_derived_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "eight.puz"
    spec.write_text(EIGHT_UNGUIDED + "search shortest by idastar\n")
    code, out, _ = run(capsys, "run", str(spec), "--format", "json", "--quiet")
    answer = json.loads(out)
    assert code == 0 and answer["length"] == 31  # what the spec with its own heuristic gives (tests/specs)
    assert answer["method"] == "IDA*" and answer["heuristic"]["used"] == "derived"
    code, out, _ = run(capsys, "run", str(tmp_path / "eight.puz"), "--method", "astar", "--format", "json", "--quiet")
    assert code == 0 and json.loads(out)["method"] == "A*" and json.loads(out)["length"] == 31


def test_a_method_named_where_no_heuristic_can_be_derived_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    farmer = str(ROOT / "specs" / "farmer.puz")
    code, out, err = run(capsys, "run", farmer, "--method", "idastar")
    assert (code, out) == (2, "")
    assert err == (
        "puzint: --method idastar needs a heuristic: the spec has no `heuristic` line, and none can be derived: "
        "pattern databases abstract pieces on a board, and this puzzle has places or counters\n"
    )
    spec = tmp_path / "q.puz"
    spec.write_text(
        'puzzle "q"\nboard line 4\npiece A a\nstart A _ _ _\ngoal _ _ _ A\nmove go: step A along right\n'
        "search shortest by idastar\n"
    )
    code, out, err = run(capsys, "run", str(spec))
    assert code == 2
    assert f"{spec}:7:20: IDA* needs a heuristic: the spec has no `heuristic` line, and none can be derived" in err
    assert "   7 | search shortest by idastar\n     |                    ^^^^^^^\n" in err


SOLVED_WRONG = """puzzle "Shidoku, solved"
board grid 4 x 4
pieces 1..4 "digits"
boxes 2 x 2
start:
    1 2 3 4
    3 4 1 2
    2 1 4 3
    4 3 1 2
fill cells with 1..4
rule: every l in rows, columns, boxes: all different(l)
"""


@pytest.mark.parametrize("search", ["", "search any\n"])
def test_a_filling_whose_givens_break_a_rule_names_the_rule_and_its_cells(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, search: str
) -> None:
    spec = tmp_path / "wrong.puz"
    spec.write_text(SOLVED_WRONG + search, encoding="utf-8")
    columns = [[row.split()[c] for row in SOLVED_WRONG.split("start:\n")[1].split("\n")[:4]] for c in range(4)]
    assert [len(set(column)) for column in columns] == [4, 4, 3, 3]  # the third column repeats a 1, the fourth a 2
    code, out, _ = run(capsys, "run", str(spec))
    assert code == 4
    assert "no solution: the givens break `all different(l)` (line 11) on r2c3, r4c3 · " in " ".join(out.split())


@pytest.mark.parametrize("search", ["", "search any\n"])
def test_the_json_of_a_filling_whose_givens_break_a_rule_names_the_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, search: str
) -> None:
    spec = tmp_path / "wrong.puz"
    spec.write_text(SOLVED_WRONG + search, encoding="utf-8")
    rule_line = SOLVED_WRONG.split("\n")[10]
    assert rule_line.startswith("rule:")  # line 11; the piece broken is the third column's (see above)
    code, out, _ = run(capsys, "run", str(spec), "--format", "json")
    assert code == 4
    data = json.loads(out)
    assert data["status"] == "no-solution"
    assert data["broken"] == {
        "line": 11,
        "column": rule_line.index("all different(l)") + 1,
        "rule": "all different(l)",
        "cells": ["r2c3", "r4c3"],  # the two 1s of the column: the givens that clash
        "message": "the givens break `all different(l)` (line 11) on r2c3, r4c3",
    }


@pytest.mark.parametrize("search", ["", "search any\n"])
def test_the_json_of_a_filling_with_no_solution_and_no_rule_broken_by_its_givens_says_null(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, search: str
) -> None:
    start = (
        "    1 2 3 _\n    _ _ _ 4\n    _ _ _ _\n    _ _ _ _"  # r1c4 must be 4 (its row), which its column holds already
    )
    assert [v for v in range(1, 5) if v not in (1, 2, 3) and v != 4] == []
    spec = tmp_path / "none.puz"
    spec.write_text(SOLVED_WRONG.split("start:")[0] + "start:\n" + start + SOLVED_WRONG.split("4 3 1 2")[1] + search)
    code, out, _ = run(capsys, "run", str(spec), "--format", "json")
    data = json.loads(out)
    assert (code, data["status"], data["broken"]) == (4, "no-solution", None)


def test_the_json_of_a_solved_filling_or_a_puzzle_of_moves_has_no_broken_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = tmp_path / "open.puz"
    spec.write_text(SOLVED_WRONG.replace("4 3 1 2", "4 3 _ _"), encoding="utf-8")
    code, out, _ = run(capsys, "run", str(spec), "--format", "json")
    assert (code, "broken" in json.loads(out)) == (0, False)
    code, out, _ = run(capsys, "run", str(ROOT / "specs" / "hanoi.puz"), "--format", "json")
    assert (code, "broken" in json.loads(out)) == (0, False)


@pytest.mark.parametrize(
    ("given", "instead", "clash"),
    [
        # the first column (1 3 2 1) and the last row (1 _ _ 1) both repeat a 1: rows first
        ("4 3 1 2", "1 _ _ 1", "r4c1, r4c4"),
        # two 1s in the first row, two of its cells open: no value put there mends it
        ("1 2 3 4\n    3 4 1 2", "1 _ _ 1\n    _ _ _ _", "r1c1, r1c4"),
    ],
)
def test_a_filling_with_cells_open_and_givens_that_break_a_rule_names_the_givens_that_clash(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, given: str, instead: str, clash: str
) -> None:
    spec = tmp_path / "twice.puz"
    spec.write_text(SOLVED_WRONG.replace(given, instead), encoding="utf-8")
    code, out, _ = run(capsys, "run", str(spec))
    assert code == 4
    said = " ".join(out.split())
    assert f"no solution: the givens break `all different(l)` (line 11) on {clash} · " in said


@pytest.mark.skipif(not kernel.installed(), reason="numba is not installed")
def test_an_engine_asked_by_name_that_hands_over_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Counting the cheapest solutions, the kernel meets a move of cost 0 and hands the count
    to Python: the answer is right, and stderr says whose it is without --verbose."""
    spec = tmp_path / "walk.puz"
    spec.write_text(
        "counter X = 0 in 0..2\ncounter Z = 0 in 0..2\ngoal when Z == 2\n"
        "move walk: set X = X + 1 cost 0\nmove pay: set Z = Z + 1 cost 1\nsearch cheapest\n"
    )
    code, out, err = run(capsys, "run", str(spec), "--count", "--engine", "compiled", "--format", "json")
    assert code == 0 and json.loads(out)["count"] == 6  # 2 pays, and 0 to 2 walks before the last pay: 1 + 2 + 3
    assert "answered by python" in err and "compiled was tried first: a move of cost 0" in err


NO_VALUE = """puzzle "Numbers or nothing"
board line 4
pieces 1..3 "numbers"
fill cells with 1..3 or empty
rule: sum(c.value for c in cells) == 5
"""


@pytest.mark.parametrize("engine", ["auto", "python", "compiled"])
def test_a_rule_s_mistake_is_shown_once_at_its_place_by_every_engine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: str
) -> None:
    spec = tmp_path / "no_value.puz"
    spec.write_text(NO_VALUE, encoding="utf-8")
    code, _, err = run(capsys, "run", str(spec), "--engine", engine)
    assert code == 2
    assert err.count("this piece has no value") == 1
    assert err.startswith(f"{spec}:5:11: this piece has no value\n   5 | rule: sum(c.value for c in cells) == 5\n")


def test_distinct_trajectories_of_a_filling_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", str(ROOT / "specs" / "queens.puz"), "--distinct", "trajectories")
    assert (code, out) == (2, "")
    assert err == (
        "puzint: --distinct trajectories follows pieces from cell to cell, and a logic puzzle places its "
        "pieces without moving any: ask for its solutions (the default) or --count\n"
    )


def test_the_engine_line_is_a_line_of_its_own_where_both_streams_go_to_one_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    both = tmp_path / "both.txt"
    with both.open("w", encoding="utf-8") as sink:
        done = subprocess.run(
            [sys.executable, "-m", "puzint", "run", FROG, "--verbose", "--engine", "python"],
            stdout=sink,
            stderr=subprocess.STDOUT,
            check=False,
        )
    assert done.returncode == 0
    lines = both.read_text(encoding="utf-8").splitlines()
    assert "puzint: answered by python (bidirectional)" in lines
    assert lines.index("puzint: answered by python (bidirectional)") > lines.index("Frog jump  n=3")
