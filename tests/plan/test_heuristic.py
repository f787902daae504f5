"""The heuristic a search runs with (`--heuristic`, plan.heuristic): chosen once, said in
the answer, refused where it would change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from puzint import heuristics
from puzint.api import solve
from puzint.cli import main
from puzint.heuristics import patterns
from puzint.runner import load

from tests.conftest import SPECS

EIGHT = str(SPECS / "eight_puzzle.puz")


@pytest.fixture(autouse=True)
def _tables_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZINT_KEEP_PATTERNS", "0")


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["run", EIGHT, "--format", "json", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_a_small_puzzle_keeps_the_spec_s_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys)
    assert out["heuristic"] == {"used": "spec", "at_start": 21}  # the spec's displacement()
    assert out["length"] == 31 and str(out["method"]).startswith("A*")  # on either engine, the race's winner


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_derived_heuristic_runs_ida_star_from_the_start(capsys: pytest.CaptureFixture[str], engine: str) -> None:
    out = run_json(capsys, "--heuristic", "derived", "--engine", engine)
    assert out["length"] == 31
    assert str(out["method"]).startswith("IDA*")
    heuristic = out["heuristic"]
    assert isinstance(heuristic, dict)
    assert (heuristic["used"], heuristic["at_start"]) == ("derived", 31)  # one table of every tile: exact
    assert str(heuristic["derived"]).startswith("pattern databases 8 (the largest), 0.4 MB, built in")


def test_verbose_says_why_auto_derived_no_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    """The eight puzzle's 9 cells hold 8 tiles and a blank: 9! = 362,880 arrangements, under the
    pattern databases' size, and no tile shares its code with another for one-piece tables."""
    assert main(["run", EIGHT, "--verbose", "--quiet"]) == 0
    said = capsys.readouterr().err
    assert (
        "auto derived no heuristic: the start's pieces can be arranged on the cells in 362,880 ways; "
        "no one-piece tables (no code the"
        " goal places is shared by several pieces on the board); pattern databases are built from 50,000,000"
        " arrangements, where every move moves one piece and some piece is on the board once for a pattern to keep"
    ) in said


def test_none_searches_with_no_heuristic(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--heuristic", "none")
    assert (out["length"], out["heuristic"]) == (31, {"used": "none", "at_start": None})
    assert str(out["method"]).startswith("bidirectional")


def test_auto_derives_tables_for_a_large_puzzle_and_takes_the_larger_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a puzzle past `LARGE` (the eight puzzle stands in for one): the spec's
    displacement() and the derived tables, the larger of the two."""
    monkeypatch.setattr(heuristics, "LARGE", 1000)
    monkeypatch.setattr(patterns, "BUILD_STATES", 2000)
    result = solve(EIGHT)
    assert result.length == 31
    assert result.data["heuristic"]["used"] == "spec and derived"
    assert result.data["heuristic"]["derived"].startswith("pattern databases 2-2-2-2 (added)")
    assert result.method.startswith("IDA*")  # from the start: no A* gave way first


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (
            ["--count", "--heuristic", "derived"],
            "--heuristic derived: a heuristic guides the search for one shortest solution (by A* or IDA*), "
            "and this question is not one",
        ),
        (["--heuristic", "none", "--method", "idastar"], "--heuristic none: --method idastar needs a heuristic"),
        (
            ["--heuristic", "none", "--method", "bfs"],
            "--heuristic none: --method bfs searches with no heuristic (A* and IDA* use one)",
        ),
        (
            ["--heuristic", "derived", "--method", "bidirectional"],
            "--heuristic derived: --method bidirectional searches with no heuristic (A* and IDA* use one)",
        ),
    ],
)
def test_a_heuristic_that_would_change_nothing_is_refused(
    capsys: pytest.CaptureFixture[str], args: list[str], why: str
) -> None:
    assert main(["run", EIGHT, *args]) == 2
    assert why in capsys.readouterr().err


def test_the_spec_s_heuristic_asked_of_a_spec_with_none_is_refused() -> None:
    with pytest.raises(ValueError, match="heuristic='spec': the spec has no `heuristic` line"):
        solve(SPECS / "frog.puz", heuristic="spec")


def test_a_derived_heuristic_asked_of_a_puzzle_with_no_abstraction_says_why() -> None:
    with pytest.raises(ValueError, match="no heuristic can be derived: the spec's symmetries join states"):
        solve(SPECS / "knights.puz", heuristic="derived")
    with pytest.raises(ValueError, match="heuristic must be one of auto, derived, spec, none, got 'best'"):
        solve(SPECS / "frog.puz", heuristic="best")
    assert load(SPECS / "frog.puz").puzzle.heuristic is None


def test_the_patterns_named_on_the_command_line_are_the_tables_built(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "--patterns", "1234,5678")
    heuristic = out["heuristic"]
    assert isinstance(heuristic, dict) and out["length"] == 31
    assert heuristic["used"] == "spec and derived"  # named tables are derived even on a small puzzle
    assert str(heuristic["derived"]).startswith("pattern databases 4-4 (added)")


@pytest.mark.parametrize(
    ("patterns", "why"),
    [
        ("1234,5X", "--patterns 1234,5X names 'X', which no pattern can keep (it may keep: 1 2 3 4 5 6 7 8)"),
        ("1234,45", "--patterns 1234,45 names '4' twice"),
        ("123,,4", "--patterns 123,,4 has an empty group"),
    ],
)
def test_patterns_that_cannot_be_built_are_refused(capsys: pytest.CaptureFixture[str], patterns: str, why: str) -> None:
    assert main(["run", EIGHT, "--patterns", patterns]) == 2
    assert why in capsys.readouterr().err


def test_patterns_go_with_a_derived_heuristic_only(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", EIGHT, "--patterns", "1234", "--heuristic", "spec"]) == 2
    assert "--patterns 1234 names the derived tables, and --heuristic spec uses none" in capsys.readouterr().err
    assert main(["run", EIGHT, "--patterns", "1234", "--count"]) == 2
    assert "--patterns 1234: a heuristic guides the search for one shortest solution" in capsys.readouterr().err


def test_the_api_names_patterns_as_the_command_line_does() -> None:
    result = solve(EIGHT, patterns="12345678", heuristic="derived")
    assert result.length == 31 and result.data["heuristic"]["derived"].startswith("pattern databases 8 (the largest)")
    with pytest.raises(ValueError, match="patterns='129' names '9', which no pattern can keep"):
        solve(EIGHT, patterns="129")


NAMED = (
    (SPECS / "eight_puzzle.puz")
    .read_text()
    .replace("heuristic displacement()", 'heuristic max(displacement(), patterns("1234, 5678"))')
)


def run_spec(capsys: pytest.CaptureFixture[str], text: str, folder: Path, *args: str) -> tuple[int, str, str]:
    spec = folder / "eight.puz"
    spec.write_text(text)
    code = main(["run", str(spec), "--format", "json", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_spec_names_the_tables_its_heuristic_reads(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, engine: str
) -> None:
    code, out, _ = run_spec(capsys, NAMED, tmp_path, "--engine", engine)
    answer = json.loads(out)
    assert code == 0 and answer["length"] == 31 and str(answer["method"]).startswith("IDA*")
    assert answer["heuristic"]["used"] == "spec"  # the spec's own, tables and all, on a small puzzle too
    assert answer["heuristic"]["derived"].startswith("pattern databases 4-4 (added)")


def test_the_command_line_names_other_tables_for_the_spec_s_patterns(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run_spec(capsys, NAMED, tmp_path, "--patterns", "12345678", "--heuristic", "spec")
    assert code == 0 and json.loads(out)["heuristic"]["derived"].startswith("pattern databases 8 (the largest)")
    code, out, _ = run_spec(capsys, NAMED, tmp_path, "--heuristic", "none")
    assert code == 0 and (json.loads(out)["length"], json.loads(out)["heuristic"]["used"]) == (31, "none")
    code, out, _ = run_spec(capsys, NAMED, tmp_path, "--heuristic", "derived")  # the spec's groups, alone
    answer = json.loads(out)
    assert code == 0 and (answer["length"], answer["heuristic"]["used"]) == (31, "derived")
    assert answer["heuristic"]["derived"].startswith("pattern databases 4-4 (added)")
    code, _, err = run_spec(capsys, NAMED.replace('"1234, 5678"', '"1234, 56X"'), tmp_path, "--heuristic", "derived")
    assert code == 2 and "eight.puz:18:31: patterns() names 'X'" in err  # refused where the spec names it


@pytest.mark.parametrize(
    ("heuristic", "where", "why"),
    [
        ('patterns("1234, 56X")', "18:31", "patterns() names 'X', which no pattern can keep (it may keep: 1 2 3 4"),
        ('patterns("12345678")', "18:31", None),  # fine: one table of every tile
        ("patterns(3)", "18:40", "patterns() takes the groups of pieces as one text"),
        ('patterns("1", "2")', "18:31", "patterns() takes 0 or 1 arguments, got 2"),
    ],
)
def test_tables_a_spec_cannot_have_are_refused_where_it_names_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, heuristic: str, where: str, why: str | None
) -> None:
    text = NAMED.replace('patterns("1234, 5678")', heuristic)
    code, _, err = run_spec(capsys, text, tmp_path)
    if why is None:
        assert code == 0
        return
    assert code == 2 and f"eight.puz:{where}: " in err and why in err, err


def test_patterns_belong_to_the_heuristic(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = NAMED.replace("move slide", "safe: patterns() < 40\nmove slide")
    code, _, err = run_spec(capsys, text, tmp_path)
    assert code == 2 and "patterns() estimates the moves left from a state: it is for the heuristic" in err, err


@pytest.mark.parametrize("metric", ["moves", "pushes"])
def test_the_derived_heuristic_asked_of_pushed_pieces_is_the_one_piece_tables(
    capsys: pytest.CaptureFixture[str], metric: str
) -> None:
    # Sokoban's moves have guards, so no pattern database is derived, but its boxes have dead
    # cells and a bound each: `derived` asks for those, as `auto` uses them on larger levels
    spec = str(SPECS / "microban.puz")
    args = ["run", spec, "-p", "n=2", "-p", f"metric={metric}", "--format", "json", "--heuristic", "derived"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["heuristic"]["used"] == "derived" and "one-piece tables" in out["heuristic"]["derived"]
    assert out["cost" if metric == "pushes" else "length"] == (
        3 if metric == "pushes" else 16
    )  # the plain solver's (benchmarks/handwritten_sokoban.py)


@pytest.mark.parametrize(("metric", "used"), [("pushes", "derived"), ("both", "derived"), ("moves", "none")])
def test_auto_guides_a_small_search_by_costs_with_the_one_piece_tables(
    capsys: pytest.CaptureFixture[str], metric: str, used: str
) -> None:
    # a search by costs is slow per state: the tables pay however small the level; a
    # breadth-first search by moves is not guided below `pieces.LARGE` arrangements
    spec = str(SPECS / "microban.puz")
    assert main(["run", spec, "-p", "n=2", "-p", f"metric={metric}", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["heuristic"]["used"] == used
    answer = {"pushes": 3, "both": [3, 16], "moves": 16}[metric]  # the plain solver's (handwritten_sokoban.py)
    assert out["cost" if metric != "moves" else "length"] == answer
