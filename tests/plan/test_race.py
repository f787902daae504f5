"""The race on two cores: Python here, the next engine in a forked copy; the first answer is
the answer, the same as either engine's alone, and the loser is stopped (or, compiling,
left to finish). Python is slowed down where a test needs the other engine to win: the
copy runs the kernel, which a slow Python does not touch."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from puzint.engines import Query, RunOptions
from puzint.kernel import installed
from puzint.kernel.where import cache_name
from puzint.plan import race, runner, sides, table
from puzint.runner import load, search
from puzint.search import Limits
from puzint.search.limits import LimitReached
from puzint.solutions import enumerate_solutions

from tests.conftest import DEAR_MOVES, SPECS, compiled_from

pytestmark = [
    pytest.mark.skipif(not installed(), reason="numba is not installed"),
    pytest.mark.skipif(not race.possible(), reason="a race needs a fork and two cores"),
]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_small_search_ends_in_python_before_any_copy_is_made(pids: list[int]) -> None:
    result = search(load(SPECS / "frog.puz"), count=True)
    assert (result.engine, result.tried_first, result.count, pids) == ("python", None, 2, [])


def test_python_answers_and_the_copy_is_stopped(pids: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(race, "_other_side", lambda *args: time.sleep(60))  # a copy that never answers
    monkeypatch.setattr(table, "DELAY", 0.0)  # forked at Python's first poll, however fast its search
    result = search(load(SPECS / "knights.puz", {"rows": "4"}), reach=True)
    assert (result.engine, result.tried_first, result.reachable) == ("python", None, 18_480)
    (pid,) = pids
    assert gone(pid)
    assert gc.get_freeze_count() == 0  # the collector sees everything again


@pytest.mark.parametrize("frozen_already", [False, True])
def test_the_run_s_objects_are_kept_from_its_collector_while_the_copy_runs(
    frozen_already: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """See `race._freeze`: frozen for the fork, thawed when the race ends; a program that had
    frozen its own objects finds them as it left them."""
    at_fork: list[int] = []
    fork = race._fork

    def counted(*args: Any) -> tuple[int, int]:
        at_fork.append(gc.get_freeze_count())
        return fork(*args)

    monkeypatch.setattr(race, "_fork", counted)
    monkeypatch.setattr(race, "_other_side", lambda *args: time.sleep(60))
    monkeypatch.setattr(table, "DELAY", 0.0)
    if frozen_already:
        gc.freeze()
    try:
        result = search(load(SPECS / "knights.puz", {"rows": "4"}), reach=True)
        assert (result.engine, result.reachable) == ("python", 18_480)
        assert len(at_fork) == 1 and at_fork[0] > 0
        assert (gc.get_freeze_count() > 0) == frozen_already
    finally:
        gc.unfreeze()


def test_the_kernel_answers_first_with_the_same_answer(
    pids: list[int], slow_python: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table, "GIVE_WAY", 600.0)
    monkeypatch.setattr(race._Sender, "progress", lambda *args: None)  # Python stops at the answer alone
    compiled = load(SPECS / "knights.puz", {"rows": "5"})
    result = search(compiled, reach=True, limits=Limits())
    assert (result.engine, result.tried_first) == ("compiled", "python")
    assert result.tried_first_stopped == "compiled, run beside it, answered first"
    alone = search(compiled, reach=True, engine="compiled")
    assert result.reachable == alone.reachable == 100_100
    assert result.layers == alone.layers
    assert all(gone(pid) for pid in pids)
    assert gc.get_freeze_count() == 0


def test_python_stops_once_the_other_engine_has_searched_a_while(
    slow_python: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table, "GIVE_WAY", 0.01)
    compiled = load(SPECS / "eight_puzzle.puz")
    result = search(compiled)
    assert (result.engine, result.tried_first) == ("compiled", "python")
    assert result.tried_first_stopped in (
        "not finished 0.01 s after compiled, run beside it, started",
        "compiled, run beside it, had begun its search",
        "compiled, run beside it, answered first",  # it may answer before Python's next poll
    )
    assert (result.status, result.length) == ("solved", 31)
    assert [move for move, _ in result.path] == [move for move, _ in search(compiled, engine="compiled").path]


def test_a_solution_found_in_the_copy_reads_as_one_found_here(slow_python: None) -> None:
    """A concrete move is numbered when it is first made: the copy's numbers are made its own
    way, and are read here through the moves' keys. Each step of the answer is a move that,
    numbered here, makes the state the copy said it makes."""
    compiled = load(SPECS / "jealous_husbands.puz", {"couples": "4", "seats": "3"})
    result = search(compiled)
    assert (result.engine, result.length) == ("compiled", search(compiled, engine="python").length)
    assert_moves_made(compiled, result.path)


def assert_moves_made(compiled: Any, path: list[tuple[int, bytes]]) -> None:
    before = compiled.start
    for move, after in path:
        assert compiled.successor(before, move) == after
        before = after


def test_every_goal_state_counted_beside_python(slow_python: None) -> None:
    compiled = load(SPECS / "number_circle.puz", {"n": "10"})
    report = enumerate_solutions(compiled, Limits())
    alone = enumerate_solutions(compiled, Limits(), options=RunOptions("compiled"))
    assert (report.engine, report.tried_first) == ("compiled", "python")
    assert (report.status, report.count, report.states) == ("solved", alone.count, alone.states)
    assert report.count == 288  # as in specs/number_circle.yaml and ../shared/PUZZLES.md


def test_every_goal_state_listed_beside_python(slow_python: None) -> None:
    compiled = load(SPECS / "queens_moves.puz", {"n": "6"})
    report = enumerate_solutions(compiled, Limits(), keep=True)
    assert report.engine == "compiled"
    alone = enumerate_solutions(
        load(SPECS / "queens_moves.puz", {"n": "6"}), Limits(), keep=True, options=RunOptions("python")
    )
    assert (report.in_all, report.count) == (alone.in_all, alone.count) == (4, 1)
    assert [path[-1][1] for path in report.solutions] == [path[-1][1] for path in alone.solutions]
    for path in report.solutions:
        assert_moves_made(compiled, path)


def test_a_hand_over_in_the_copy_leaves_python_to_answer(slow_python: None) -> None:
    result = search(compiled_from(DEAR_MOVES))
    assert (result.engine, result.cost) == ("python", 12 * 999999999999999999)


def test_a_copy_that_dies_before_a_word_leaves_python_to_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(race, "_other_side", lambda *args: os._exit(3))
    result = search(load(SPECS / "knights.puz", {"rows": "5"}), reach=True)
    assert (result.engine, result.tried_first, result.reachable) == ("python", None, 100_100)


def test_a_copy_that_dies_searching_leaves_python_to_answer_from_the_start(
    slow_python: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dies(pipe: int, *args: Any) -> None:
        race._Sender(pipe).frame(("running", "compiled"))
        race._Sender(pipe).frame(("progress", 100, "depth 1"))
        time.sleep(1.0)  # Python gives way meanwhile (GIVE_WAY)
        os._exit(3)

    monkeypatch.setattr(table, "GIVE_WAY", 0.01)
    monkeypatch.setattr(race, "_other_side", dies)
    result = search(load(SPECS / "knights.puz", {"rows": "4"}), reach=True)
    assert (result.engine, result.tried_first) == ("python", "compiled")
    assert result.tried_first_stopped == "compiled process ended unanswered"
    assert result.reachable == 18_480


def test_the_run_s_time_limit_stops_both(pids: list[int], slow_python: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table, "GIVE_WAY", 0.01)
    compiled = load(SPECS / "knights.puz", {"rows": "12"})  # hundreds of millions of states
    result = search(compiled, reach=True, limits=Limits(timeout=1.5, max_states=10**10))
    assert (result.status, result.limit_reason) == ("limit", "time limit of 1.5 s reached")
    assert all(gone(pid) for pid in pids)
    # where the copy was searching, it kept the same limit, and its own report of it is the
    # run's: its method and the states it had searched (not a report with no method)
    assert result.method.endswith(", compiled") == (result.engine == "compiled")
    assert result.method.startswith(("layered bfs", "bfs")) and result.states > 0


@pytest.mark.slow
def test_a_cold_kernel_is_compiled_in_the_copy_and_left_to_finish(tmp_path: Path) -> None:
    """In an empty cache (a process of its own: this one's kernel has its cache already):
    Python answers while the copy compiles; the copy finishes the compile, for the next run,
    and exits without searching."""
    argv = [sys.executable, "-m", "puzint", "run", str(SPECS / "knights.puz"), "-p", "rows=5", "--reach"]
    env = {**os.environ, "PUZINT_CACHE_DIR": str(tmp_path), "PUZINT_PREBUILT": "0"}
    done = subprocess.run([*argv, "--format", "json"], env=env, capture_output=True, text=True, check=True)
    data = json.loads(done.stdout)
    assert (data["engine"], data["reachable"]) == ("python", 100_100)
    deadline = time.monotonic() + 300
    while not list(tmp_path.glob(f"{cache_name()}/core.run_layer*.nbi")) and time.monotonic() < deadline:
        time.sleep(0.5)
    again = subprocess.run([*argv, "--engine", "compiled", "--format", "json"], env=env, capture_output=True, text=True)
    assert json.loads(again.stdout)["reachable"] == 100_100
    assert "compiling" not in again.stderr


def test_engine_help_says_the_two_race(capsys: pytest.CaptureFixture[str]) -> None:
    from puzint.cli import main

    assert main(["run", str(SPECS / "knights.puz"), "--reach", "--engine", "help"]) == 0
    assert capsys.readouterr().out.splitlines()[-4:] == [
        "  auto      runs python here and compiled beside it, in a copy of this process (compiled there first",
        "            where its cache lacks it): the first answer is the answer; python gives way once an",
        "            engine beside it has begun its search (at most 0.3 s after it started). An engine that",
        "            wins by a clear margin is asked alone the next time",
    ]


def test_no_race_while_another_thread_compiles(pids: list[int]) -> None:
    """A copy forked while another thread holds numba's compile lock would find it taken for
    ever: Python goes on alone then."""
    import threading

    from numba.core.compiler_lock import global_compiler_lock

    held, done = threading.Event(), threading.Event()

    def compiling() -> None:
        with global_compiler_lock:
            held.set()
            done.wait(30)

    thread = threading.Thread(target=compiling)
    thread.start()
    held.wait(5)
    try:
        result = search(load(SPECS / "frog.puz"), count=True)
    finally:
        done.set()
        thread.join()
    assert (result.engine, result.count, pids) == ("python", 2, [])


def test_no_copy_is_forked_while_a_module_is_imported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy forked while Python's search imports a module (the fill model imports numpy at
    its start) finds that module half made for ever: the copies failed with ImportErrors, and
    Python answered a Killer Sudoku alone in 20 s. The fork waits for the import."""
    (tmp_path / "being_imported.py").write_text(
        "from puzint.plan import race\nSEEN = race._importing()\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import being_imported  # type: ignore[import-not-found]

    assert being_imported.SEEN and not race._importing()
    forks: list[str] = []
    monkeypatch.setattr(race, "_fork", lambda *args: forks.append("fork") or (0, -1))
    racing = race.Race(Limits(), ("compiled",), lambda name: lambda: None, lambda engine: None, lambda e, limits: None)
    racing.started -= 1.0  # past DELAY
    monkeypatch.setattr(race, "_importing", lambda: True)
    racing._due()
    assert forks == [] and not racing.forked()
    monkeypatch.setattr(race, "_importing", lambda: False)
    racing._due()
    assert forks == ["fork"]
    racing.copies[0].pid = None  # nothing was forked: nothing to reap
    racing._thaw()


def test_a_stop_of_the_run_comes_to_the_copy_furthest_along() -> None:
    """The engine a stop is said of (race.answer): the copy searching, not the first one, which
    may still be compiling the kernel (then the stop says so: nothing was searched). No copy is
    forked here: their phases are set as their frames would set them."""

    def never(name: str) -> race.Choose:
        return lambda: None

    racing = race.Race(Limits(), ("compiled", "cpsat"), never, lambda engine: None, lambda engine, limits: None)
    compiling, searching = racing.copies
    compiling.phase, searching.phase = "compiling", "searching"
    assert racing.furthest() is searching
    searching.phase = "starting"
    assert racing.furthest() is compiling
    compiling.pid, searching.pid, searching.phase = -1, -2, "searching"  # never signalled: only read
    compiling.outcome = None
    searching.outcome = race.Outcome("gone", "cpsat")  # ended: the copy still running is the one
    assert racing.furthest() is compiling


@pytest.mark.parametrize("then", ["the first drops out", "python stops"])
def test_no_more_processes_than_cores_while_python_searches(then: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On two cores, one copy beside Python's search, in the plan's order; the next is forked
    when the first drops out (its engine cannot answer: here its pipe reads as closed) or
    once Python has stopped (`answer` makes room for one more). No process is forked here."""
    forks: list[str] = []
    monkeypatch.setattr(race, "_fork", lambda run, choose, *rest: forks.append(choose()) or (0, -1))
    named: Any = lambda name: lambda: name  # noqa: E731 - each copy's "engine" is its name
    racing = race.Race(Limits(), ("compiled", "cpsat"), named, lambda engine: None, lambda e, limits: None, slots=1)
    racing.started -= 1.0  # past DELAY
    racing._due()
    assert forks == ["compiled"] and racing.still_running()
    if then == "the first drops out":
        racing._over()
    else:
        racing._fork_waiting(racing.slots + 1)
    assert forks == ["compiled", "cpsat"]
    for copy in racing.copies:
        copy.pid = None  # nothing was forked: nothing to reap
    racing._thaw()


TURNS = """puzzle "Turn a 2 x 2 block"
param perm = [1, 4, 3, 12, 5, 14, 2, 8, 10, 9, 11, 6, 13, 16, 15, 7] "the start, row by row"
board grid 4 x 4
pieces 1..16 "tiles"
shape square = (0, 0), (0, 1), (1, 0), (1, 1)
start = perm
goal = 1..16
move cw:  ?a ?b ?c ?d -> ?c ?a ?d ?b in square
move ccw: ?a ?b ?c ?d -> ?b ?d ?a ?c in square
"""


def test_python_searching_from_both_ends_gives_way_to_no_search_from_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A state of 64 bits: the kernel could only search breadth first from the start (it stops
    at 10,000,000 states); Python, from both ends, answers, however soon the kernel began."""
    monkeypatch.setattr(table, "DELAY", 0.0)
    monkeypatch.setattr(table, "GIVE_WAY", 0.0)
    compiled = compiled_from(TURNS)
    assert "from both ends" in table.python_keeps_on(compiled, Query.of(compiled))
    result = search(compiled, limits=Limits(max_states=2_000_000))
    assert (result.status, result.length, result.engine) == ("solved", 9, "python")
    assert result.method == "bidirectional"


def test_a_copy_stopped_by_its_own_state_limit_does_not_stop_python(
    slow_python: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel, from the start, stops at 1,000,000 states before Python, from both ends
    (held back until the copy is out), has stored the 452,088 it needs: that stop is no
    answer, and Python's is the run's."""
    monkeypatch.setattr(table, "GIVE_WAY", 0.0)
    result = search(compiled_from(TURNS), limits=Limits(max_states=1_000_000))
    assert (result.status, result.length, result.engine, result.method) == ("solved", 9, "python", "bidirectional")


def test_python_gives_way_where_the_kernel_searches_from_both_ends_too() -> None:
    compiled = load(SPECS / "frog.puz")
    assert table.python_keeps_on(compiled, Query.of(compiled)) == ""
    assert table.python_keeps_on(compiled, Query.of(compiled, method="bfs")) == ""


@pytest.fixture
def asked_alone(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The engines the runner asks alone, in order."""
    alone = runner._alone
    asked: list[str] = []

    def recorded(*args: Any) -> Any:
        asked.append(args[5])
        return alone(*args)

    monkeypatch.setattr(runner, "_alone", recorded)
    return asked


def test_a_listing_too_long_to_carry_back_is_listed_by_the_copy_s_engine_alone(
    slow_python: None, asked_alone: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A copy that finds more solutions than the race holds asks to run alone: its engine then
    lists every one here, as it finds them (16 queens: millions, held in a copy's memory and
    printed after the time limit before)."""
    monkeypatch.setattr(sides, "RACE_HOLDS", 20)  # the copy, forked, holds as few
    compiled = load(SPECS / "number_circle.puz", {"n": "10"})
    handed: list[int] = []
    report = enumerate_solutions(compiled, Limits(), keep=True, on_solution=lambda path: handed.append(len(path)))
    assert (report.engine, report.tried_first, report.status) == ("compiled", "python", "solved")
    assert asked_alone == ["compiled"]  # the race left, the copy's engine asked again alone
    assert report.count == len(handed) == 288  # as in specs/number_circle.yaml


def test_python_finding_more_than_the_race_holds_lists_alone(
    asked_alone: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sides, "RACE_HOLDS", 2)
    monkeypatch.setattr(table, "DELAY", 60.0)  # no copy is forked before Python has found them
    report = enumerate_solutions(load(SPECS / "queens.puz", {"n": "6"}), Limits(), keep=True)
    assert asked_alone == ["python"]  # the race left, Python asked again alone
    assert (report.engine, report.tried_first, report.status, report.in_all, report.count) == (
        "python",
        None,
        "solved",
        4,
        1,
    )


def test_at_the_time_limit_the_listing_that_went_furthest_is_the_answer() -> None:
    """Both copies stop at the run's time limit with their own report: the one with more
    solutions found is the answer, though the other comes first in the plan's order."""
    run = Limits(timeout=1.0)
    run.started -= 2.0  # the time is up
    racing = race.Race(run, ("compiled", "cpsat"), lambda name: lambda: None, lambda engine: None, lambda *a: None)
    racing._extent = len
    for copy, found in zip(racing.copies, (["a"], ["a", "b", "c"]), strict=True):
        copy.pid, copy.phase = 1, "searching"
        copy.outcome = race.Outcome("done", copy.engine, answer=found)
    copy, answer = racing._answer_at_stop(LimitReached("time limit of 1 s reached"))
    assert (copy.engine, answer) == ("cpsat", ["a", "b", "c"])
    racing._extent = lambda answer: None  # answers that do not compare: the copy furthest along
    assert racing._answer_at_stop(LimitReached("time limit of 1 s reached"))[0].engine == "compiled"
