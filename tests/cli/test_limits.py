"""Limits hold from the start of a run and in every search mode: the run stops with a clean
report (exit 3, status "limit" in JSON) wherever it is, never with a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from puzint.cli import main

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    code = main([*argv, "--format", "json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else {}, err


def test_a_time_limit_stops_a_long_compilation(capsys: pytest.CaptureFixture[str]) -> None:
    # white & black with k=700 takes minutes to compile: the limit is armed before it starts.
    code, data, _ = run_json(capsys, "run", str(SPECS / "white_black.puz"), "-p", "k=700", "--timeout", "0.3")
    assert code == 3
    assert (data["status"], data["limit"], data["stopped_while"]) == (
        "limit",
        "time limit of 0.3 s reached",
        "compiling",
    )
    assert data["states"] == 0


def test_the_state_limit_is_met_exactly_by_breadth_first_search(capsys: pytest.CaptureFixture[str]) -> None:
    code, data, _ = run_json(
        capsys, "run", str(SPECS / "frog.puz"), "-p", "n=8", "--method", "bfs", "--max-states", "1000"
    )
    assert code == 3 and data["limit"] == "state limit of 1,000 reached"
    assert 1000 <= data["states"] <= 1000 + 4  # at most one state's successors past it


def test_a_large_branching_factor_does_not_carry_a_search_past_its_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # knights on 12 x 12: hundreds of successors per state, far more than the limit allows.
    argv = ["run", str(SPECS / "knights.puz"), "-p", "rows=12", "-p", "cols=12", "-p", "knights=12"]
    code, data, _ = run_json(capsys, *argv, "--max-states", "1000")
    assert code == 3 and data["status"] == "limit"
    assert data["states"] < 1000 + 2000


@pytest.mark.parametrize(
    ("argv", "mode"),
    [
        (["eight_puzzle.puz", "--method", "idastar"], "IDA*"),
        (["queens.puz"], "all solutions"),
        (["knights.puz", "--all"], "all solutions"),
        (["number_circle.puz", "-p", "n=12"], "count"),
    ],
)
def test_every_search_mode_honours_an_explicit_state_limit(
    capsys: pytest.CaptureFixture[str], argv: list[str], mode: str
) -> None:
    code, data, err = run_json(capsys, "run", str(SPECS / argv[0]), *argv[1:], "--max-states", "300")
    assert code == 3, (mode, err)
    assert data["status"] == "limit" and data["limit"] == "state limit of 300 reached"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--max-states", "abc", "argument --max-states: expected a whole number of states such as 1000000, got 'abc'"),
        ("--max-states", "0", "argument --max-states: expected at least 1 state, got '0'"),
        ("--timeout", "nan", "argument --timeout: expected a positive number of seconds such as 30, got 'nan'"),
        ("--timeout", "abc", "argument --timeout: expected a positive number of seconds such as 30, got 'abc'"),
        ("--max-memory", "-5", "argument --max-memory: expected a positive number of MB such as 2000, got '-5'"),
    ],
)
def test_limit_options_are_refused_in_the_users_words(
    capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    code = main(["run", str(SPECS / "frog.puz"), option, value])
    err = capsys.readouterr().err
    assert code == 2 and err.rstrip().endswith(message)


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32", reason="POSIX signals")
def test_sigterm_stops_a_search_with_a_report() -> None:
    argv = [sys.executable, "-m", "puzint", "run", str(SPECS / "number_circle.puz"), "-p", "n=16", "--format", "json"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(1.5)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 3, err
    data = json.loads(out)
    assert data["status"] == "limit" and data["limit"] == "stopped by SIGTERM"
    assert "Traceback" not in err
