"""The heuristic a search runs with (`--heuristic`, plan.heuristic): chosen once, said in
the answer, refused where it would change nothing."""

from __future__ import annotations

import json

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
