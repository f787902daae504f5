"""`puzint check` on several cores: the same report as one case after another, in the same
order; a process that dies fails its own case only; Ctrl-C stops the cases running and
starts no other."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from puzint import checking, plan
from puzint.cli import main
from puzint.ctrl_c import CtrlC
from puzint.engines import Query, RunOptions
from puzint.plan import race
from puzint.runner import load
from puzint.search import Limits

from tests.conftest import SPECS, Terminal

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

TIMES = re.compile(r" *\(\d+\.\d\d s\)| ·\s+\d+\.\d s")


def copy(tmp_path: Path, name: str, as_name: str | None = None, cases: str | None = None) -> None:
    """A shipped spec into tmp_path, with its own expectations or those given."""
    target = tmp_path / (as_name or name)
    target.with_suffix(".puz").write_text((SPECS / f"{name}.puz").read_text())
    target.with_suffix(".yaml").write_text(cases if cases is not None else (SPECS / f"{name}.yaml").read_text())


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, TIMES.sub("", out), err


def test_the_report_is_the_same_one_after_another_and_at_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    copy(tmp_path, "hanoi")  # its 8-disc case ends after the cases of the specs after it
    copy(tmp_path, "frog")
    copy(tmp_path, "white_black", "wrong", "cases:\n  - length: 5\n  - params: {k: 3}\n    length: 15\n")
    copy(tmp_path, "white_black", "unknown", "cases:\n  - params: {size: 3}\n    length: 15\n")
    (tmp_path / "lonely.puz").write_text((SPECS / "frog.puz").read_text())
    one = check(capsys, str(tmp_path), "--jobs", "1")
    several = check(capsys, str(tmp_path), "--jobs", "3")
    assert one == several
    code, out, err = one
    assert code == 2
    assert out.splitlines()[-1] == "5 spec(s), 10 case(s): 8 passed, 2 failed · 2 spec(s) could not be checked"
    assert out.count("FAIL") == 2 and "length: expected 5, got 4" in out and "length: expected 15, got 6" in out
    assert "lonely.yaml is missing" in err and "unknown.puz has no parameter 'size'" in err
    headers = [line for line in out.splitlines() if line.endswith(".puz")]
    assert headers == [str(tmp_path / f"{name}.puz") for name in ("frog", "hanoi", "lonely", "unknown", "wrong")]


@pytest.mark.skipif(not race.can_fork(), reason="the processes reach the patched loop by a fork")
def test_a_process_that_dies_fails_its_own_case_and_the_check_goes_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy(tmp_path, "frog")
    copy(tmp_path, "white_black")
    work = checking._work

    class Doomed:
        """The process's end of the pipe: the second case of white_black kills it."""

        def __init__(self, conn: Any):
            self.conn = conn

        def recv(self) -> Any:
            task = self.conn.recv()
            if task is not None and task[0].endswith("white_black.puz") and task[1] == 1:
                os.kill(os.getpid(), signal.SIGKILL)
            return task

        def send(self, message: Any) -> None:
            self.conn.send(message)

    monkeypatch.setattr(checking, "_work", lambda conn, *args: work(Doomed(conn), *args))  # forked: inherited
    code, out, err = check(capsys, str(tmp_path), "--jobs", "2")
    assert code == 1 and err == ""
    assert out.count("FAIL") == 1 and "(search stopped: not checked: its process was killed by SIGKILL)" in out
    assert out.splitlines()[-1] == "2 spec(s), 8 case(s): 7 passed, 1 failed"
    lines = out.splitlines()
    assert lines[lines.index(str(tmp_path / "white_black.puz")) + 2].startswith("  FAIL k=1")


def test_a_case_takes_the_whole_machine_where_it_runs_alone_and_one_core_beside_others() -> None:
    assert race.cores(1) == 1 and not race.possible(1)
    assert race.cores() == len(os.sched_getaffinity(0))


def test_a_case_checked_beside_others_runs_no_race(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check's process counts on its share of the cores (RunOptions.cores): with one, its
    `auto` tries Python first, then the kernel, and forks no copy."""
    from puzint.plan import first_try

    forked: list[object] = []
    monkeypatch.setattr(race, "_fork", lambda *args: forked.append(args) or (0, -1))
    seen: list[object] = []
    monkeypatch.setattr(first_try.FirstTry, "__init__", _recording(first_try.FirstTry.__init__, seen))
    compiled = load(SPECS / "knights.puz", {"rows": "4"})
    result = plan.search(compiled, Query.of(compiled, reach=True), Limits(), RunOptions(cores=1))
    assert result.reachable == 18_480 and forked == [] and len(seen) == 1


def _recording(made: Any, seen: list[object]) -> Any:
    def recorded(self: object, *args: Any, **kwargs: Any) -> None:
        seen.append(self)
        made(self, *args, **kwargs)

    return recorded


@pytest.mark.parametrize(
    ("jobs", "line"), [(1, "searching (python)"), (2, "checking in 2 processes: 4 case(s) done · hanoi discs=10")]
)
def test_a_terminal_shows_what_runs(tmp_path: Path, jobs: int, line: str) -> None:
    # frog's four cases end (and are reported) while hanoi's long one runs: the status line
    # counts them among the cases done
    import io

    from puzint.search import Limits
    from rich.console import Console

    copy(tmp_path, "frog")
    copy(tmp_path, "hanoi", cases="cases:\n  - params: {discs: 10}\n    reachable: 59049\n")
    terminal = io.StringIO()
    console = Console(file=terminal, force_terminal=True, width=200)
    specs = [tmp_path / "frog.puz", tmp_path / "hanoi.puz"]
    events = list(checking.check(specs, RunOptions("python"), Limits(), jobs, CtrlC(), console))
    assert [type(event).__name__ for event in events] == ["SpecReached"] + ["CaseChecked"] * 4 + [
        "SpecReached",
        "CaseChecked",
    ]
    assert events[-1].case.actual["reachable"] == 59049  # type: ignore[union-attr]
    assert line in terminal.getvalue()


def test_jobs_do_not_go_with_record(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--record", str(SPECS / "frog.puz"), "--jobs", "2"])
    assert (
        code == 2 and capsys.readouterr().err == "puzint: --jobs goes with a check of cases: --record runs one search\n"
    )
    assert main(["check", "--jobs", "0"]) == 2
    assert "expected at least 1 job, got '0'" in capsys.readouterr().err


def test_ctrl_c_stops_the_cases_running_and_starts_no_other(tmp_path: Path) -> None:
    # Two long cases (13 discs reached in Python: minutes) run at once; a short spec between
    # them ends, and one after them waits. Ctrl-C, sent to the check alone (not to its
    # processes), stops both long cases; the waiting spec is not begun.
    long = "cases:\n  - params: {discs: 13}\n    reachable: 1594323\n"
    copy(tmp_path, "hanoi", "a_long", long)
    copy(tmp_path, "frog", "b_short")
    copy(tmp_path, "hanoi", "c_long", long)
    copy(tmp_path, "frog", "d_waiting")
    terminal = Terminal()
    argv = [sys.executable, "-m", "puzint", "check", str(tmp_path), "--jobs", "2", "--engine", "python"]
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "300"}
    process = subprocess.Popen(argv, stdout=terminal.child, stderr=subprocess.PIPE, env=env)
    os.close(terminal.child)
    terminal.reader.start()
    terminal.wait_for(b"a_long discs=13", b"c_long discs=13")  # the status line: both run
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    terminal.reader.join()
    out = terminal.text.decode()
    assert process.returncode == 3 and b"Traceback" not in err
    assert out.count("(search stopped: interrupted)") == 2 and "d_waiting" not in out
    assert "4 spec(s), 6 case(s): 4 passed, 2 failed · stopped: interrupted" in out
