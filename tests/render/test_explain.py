"""`--explain`: each state drawn with the moves a safety rule forbids from it, folded to the
width; and where there is no solution, how near the goal the reachable states come, what part
of it none reaches, and what stops the nearest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from puzint.cli import main
from rich.cells import cell_len

from tests.conftest import SPECS


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int, *argv: str) -> tuple[int, str]:
    monkeypatch.setenv("COLUMNS", str(width))
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_each_state_is_drawn_and_every_line_fits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = run(capsys, monkeypatch, 50, "run", str(SPECS / "farmer.puz"), "--explain")
    lines = out.splitlines()
    assert code == 0 and max(cell_len(line) for line in lines) <= 50
    assert lines.count("right: F L G C (boat)") == 1  # the goal, drawn as the text drawing draws places
    assert [line for line in lines if re.match(r"\d+\. ", line)] == [
        "1. cross F G → right",
        "2. cross F right → left",
        "3. cross F L → right",
        "4. cross F G → left",
        "5. cross F C → right",
        "6. cross F right → left",
        "7. cross F G → right",
    ]
    forbidden = [line for line in lines if line.startswith("  ✗ ")]
    assert forbidden[0] == "  ✗ F left → right  breaks line 17 at left: farmer"  # folded at the width
    assert len(forbidden) == 5  # at the start 3 (the farmer alone, or with the wolf or the cabbage), then 1 and 1


def test_no_solution_says_how_near_and_what_stops_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = run(
        capsys, monkeypatch, 200, "run", str(SPECS / "jealous_husbands.puz"), "-p", "couples=4", "--explain"
    )
    assert code == 4
    assert "The nearest to the goal have 4 of its 8 parts; one of them:" in out
    assert "from there, a safety rule forbids:" in out and "breaks line 28" in out
    assert "no solution: all 44 reachable states explored, none is the goal" in out


def test_a_part_of_the_goal_never_reached_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    spec = tmp_path / "stuck.puz"
    spec.write_text("board line 4\npiece B b\nstart B _ B _\ngoal _ B _ B\nmove s: B _ -> _ B along left\n")
    code, out = run(capsys, monkeypatch, 80, "run", str(spec), "--explain")
    assert code == 4
    assert "No state reached has this part of the goal:\n  ✗ cell 1 is empty\n  ✗ cell 4 holds B\n" in out
    assert "The nearest to the goal have 2 of its 4 parts" in out and "from there, no move can be made" in out
