"""Limits hold from the start of a run and in every search mode: the run stops with a clean
report (exit 3, status "limit" in JSON) wherever it is, never with a traceback."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.search import Limits

from tests.conftest import Terminal

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    code = main([*argv, "--format", "json"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else {}, err


def test_a_time_limit_stops_a_long_compilation(capsys: pytest.CaptureFixture[str]) -> None:
    # white & black with k=700 takes minutes to compile: the limit is armed before it starts
    # (2 s: reading the spec stays well inside it even on a machine busy compiling the kernel).
    code, data, _ = run_json(capsys, "run", str(SPECS / "white_black.puz"), "-p", "k=700", "--timeout", "2")
    assert code == 3
    assert (data["status"], data["limit"], data["stopped_while"]) == (
        "limit",
        "time limit of 2 s reached",
        "compiling",
    )
    assert data["states"] == 0


def test_the_state_limit_is_met_exactly_by_breadth_first_search(capsys: pytest.CaptureFixture[str]) -> None:
    code, data, _ = run_json(
        capsys, "run", str(SPECS / "frog.puz"), "-p", "n=8", "--method", "bfs", "--max-states", "1000"
    )
    assert code == 3 and data["limit"] == "state limit of 1,000 reached"
    assert 1000 <= data["states"] <= 1000 + 4  # at most one state's successors past it


def test_a_stop_at_the_state_or_memory_limit_says_how_to_go_further(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", str(SPECS / "frog.puz"), "-p", "n=8", "--method", "bfs", "--max-states", "1000"]
    assert main(argv) == 3
    assert "stopped: state limit of 1,000 reached (--max-states N goes further)" in capsys.readouterr().out
    argv = ["run", str(SPECS / "queens.puz"), "-p", "n=8", "--all", "--max-states", "40"]
    assert main(argv) == 3
    assert "stopped: state limit of 40 reached (--max-states N goes further) after" in capsys.readouterr().out


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
        (["queens_moves.puz"], "all solutions"),
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
    # SIGTERM once the search runs (its progress line says so on the terminal): not after a
    # time that a busy machine might not have started the search in
    argv = [sys.executable, "-m", "puzint", "run", str(SPECS / "number_circle.puz"), "-p", "n=16", "--format", "json"]
    terminal = Terminal()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=terminal.child, text=True, env=env)
    os.close(terminal.child)
    terminal.reader.start()
    terminal.wait_for(b"searching")
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=120)
    terminal.reader.join()
    assert process.returncode == 3, terminal.text
    data = json.loads(out)
    assert data["status"] == "limit" and data["limit"] == "stopped by SIGTERM"
    assert b"Traceback" not in terminal.text


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and terminals")
def test_a_second_ctrl_c_while_the_report_is_written_does_not_cut_it() -> None:
    # The first Ctrl-C stops the search once it runs; the second comes once the JSON report
    # has begun, while it waits on the pipe (megabytes: the pipe cannot hold it, so the
    # writer is still at it). The report ends whole and the run exits with 3.
    argv = [sys.executable, "-m", "puzint", "run", "number_circle", "-p", "n=16", "--engine", "python"]
    terminal = Terminal()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100"}
    process = subprocess.Popen([*argv, "--format", "json"], stdout=subprocess.PIPE, stderr=terminal.child, env=env)
    os.close(terminal.child)
    terminal.reader.start()
    assert process.stdout is not None
    terminal.wait_for(b"searching")
    process.send_signal(signal.SIGINT)
    first = process.stdout.read(1)
    process.send_signal(signal.SIGINT)
    report = first + process.stdout.read()
    assert process.wait() == 3
    terminal.reader.join()
    data = json.loads(report)
    assert len(report) > 1_000_000 and (data["status"], data["limit"]) == ("limit", "interrupted")
    assert b"Traceback" not in terminal.text and b"interrupted" not in terminal.text


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_check_after_the_case_it_interrupts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("frog", "hanoi"):
        for suffix in (".puz", ".yaml"):
            (tmp_path / f"{name}{suffix}").write_text((SPECS / f"{name}{suffix}").read_text())
    poll = Limits.check
    sent: list[bool] = []

    def check(self: Limits, *args: object, **kwargs: object) -> int:
        if not sent:  # Ctrl-C at the first poll of the first case's search
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)
        return poll(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Limits, "check", check)
    before = signal.getsignal(signal.SIGINT)
    code = main(["check", str(tmp_path), "--engine", "python", "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 3 and signal.getsignal(signal.SIGINT) is before
    assert "hanoi.puz" not in out and out.count("FAIL") == 1 and "(search stopped: interrupted)" in out
    assert "2 spec(s), 1 case(s): 0 passed, 1 failed · stopped: interrupted" in out


def test_a_run_that_runs_out_of_memory_stops_with_exit_3_and_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An allocation that fails before the memory limit is reached (a process limited by `ulimit
    -v`) ends the run as a limit does: exit 3 and a sentence, no internal error."""
    from puzint import cli

    def no_memory(*_: object) -> int:
        raise MemoryError

    monkeypatch.setattr(cli, "cmd_run", no_memory)
    assert main(["run", str(SPECS / "frog.puz")]) == 3
    err = capsys.readouterr().err
    assert "puzint: stopped: the process ran out of memory before the memory limit was reached" in err
    assert "internal error" not in err


def test_the_default_memory_limit_fits_the_address_space_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    from puzint.search import limits

    if limits.resource is None:
        pytest.skip("no resource module here")
    gb = 1024 * 1024 * 1024
    monkeypatch.setattr(limits.resource, "getrlimit", lambda _: (3 * gb, limits.resource.RLIM_INFINITY))
    assert limits._default_max_memory_mb() == int(3 * 1024 * limits.ADDRESS_SPACE_SHARE)
    monkeypatch.setattr(limits.resource, "getrlimit", lambda _: (limits.resource.RLIM_INFINITY,) * 2)
    assert limits._default_max_memory_mb() == 8192.0
    monkeypatch.setattr(limits.resource, "getrlimit", lambda _: (64 * gb, limits.resource.RLIM_INFINITY))
    assert limits._default_max_memory_mb() == 8192.0
