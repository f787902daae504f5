"""The plan and its runner: the plan for `auto` (plan.table), an engine asked by name (refused
with its reason where it cannot answer), a first try that moves to the kernel, a hand-over
back to Python, and the result naming the engine that answered. Python is held back
(`slow_python`) where a test needs another engine to answer: no test counts on how fast
anything runs."""

from __future__ import annotations

import json
import os
import signal
import threading
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.engines import Query, RunOptions, registry
from puzint.errors import SpecError
from puzint.kernel import installed
from puzint.kernel.where import cache_name
from puzint.plan import race, table
from puzint.plan.table import plan
from puzint.runner import load, search
from puzint.search import Limits

from tests.conftest import DEAR_MOVES, SPECS, compiled_from

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")


@pytest.fixture
def one_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """No race (as on one core): Python's first try, then the next engine (tests/plan/test_race.py
    has the race)."""
    monkeypatch.setattr(race, "possible", lambda share=None: False)


def test_auto_tries_python_first_where_the_kernel_answers_too() -> None:
    compiled = load(SPECS / "knights.puz")
    chosen = plan(compiled, Query.of(compiled, reach=True), RunOptions())
    assert (chosen.alone, chosen.beside, chosen.engines) == (None, ("compiled",), ("python", "compiled"))


def test_the_kernel_is_known_to_be_compiled_from_its_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiled = load(SPECS / "knights.puz")
    query = Query.of(compiled, mode="any")  # a walk: on the machine
    monkeypatch.setenv("PUZINT_CACHE_DIR", str(tmp_path))  # an empty cache: a compile ahead
    monkeypatch.setenv("PUZINT_PREBUILT", "0")  # nor any compiled at install
    assert not registry.COMPILED.compiled_already(compiled, query)
    (tmp_path / cache_name()).mkdir()
    (tmp_path / cache_name() / "entry._entry-54.py311.nbi").write_bytes(b"")
    assert registry.COMPILED.compiled_already(compiled, query)


def test_auto_keeps_to_python_where_the_kernel_does_not_answer() -> None:
    compiled = load(SPECS / "knights.puz")
    chosen = plan(compiled, Query.of(compiled, listing=True), RunOptions())
    assert chosen.engines == ("python",) and chosen.row is not None and chosen.row.beside == ()


def test_an_engine_asked_by_name_that_cannot_answer_is_refused_with_its_reason() -> None:
    compiled = load(SPECS / "bridge_torch.puz")
    compiled_with_symmetry = compiled_from((SPECS / "bridge_torch.puz").read_text() + "symmetry swap P1 P2\n")
    with pytest.raises(SpecError) as caught:
        plan(compiled_with_symmetry, Query.of(compiled, count=True), RunOptions("compiled"))
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.message == (
        "--engine compiled cannot run this: counting the cheapest solutions up to symmetry runs in Python"
    )


def test_every_reason_is_one_sentence() -> None:
    for spec in sorted(SPECS.glob("*.puz")):
        compiled = load(spec)
        for question in (
            Query.of(compiled),
            Query.of(compiled, count=True),
            Query.of(compiled, reach=True),
            Query.of(compiled, listing=True),
        ):
            for described in registry.DESCRIPTIONS:
                why = registry.engine(described.name).why_not(compiled, question)
                assert why is None or ("\n" not in why and not why.endswith(".")), (spec.name, why)


def test_a_search_too_long_for_the_first_try_is_answered_by_the_kernel(
    monkeypatch: pytest.MonkeyPatch, one_core: None, slow_python: None
) -> None:
    monkeypatch.setattr(table, "FIRST_TRY", 0.05)
    monkeypatch.setattr(registry.COMPILED, "compiled_already", lambda compiled, query: True)
    compiled = load(SPECS / "knights.puz", {"rows": "5"})
    result = search(compiled, reach=True, limits=Limits())
    assert (result.engine, result.tried_first) == ("compiled", "python")
    assert result.tried_first_stopped == "not finished in 0.05 s"
    assert result.reachable == 100_100


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="POSIX signals")
def test_a_stop_during_the_first_try_stops_the_run(monkeypatch: pytest.MonkeyPatch, one_core: None) -> None:
    """SIGTERM in Python's try is the run's stop: the kernel (or Python again) never runs."""
    from puzint.plan import walk

    monkeypatch.setattr(table, "FIRST_TRY", 60.0)
    monkeypatch.setattr(registry.COMPILED, "compiled_already", lambda compiled, query: True)
    compiled = load(SPECS / "number_circle.puz", {"n": "16"})  # search all: minutes in Python
    limits = Limits()
    threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()
    walked = walk(compiled, limits, RunOptions())
    assert (walked.engine, walked.tried, walked.walked.stopped) == ("python", None, "stopped by SIGTERM")
    assert walked.walked.visited > 0 and limits.tripped == "stopped by SIGTERM"


def test_a_small_search_is_answered_by_python_alone() -> None:
    result = search(load(SPECS / "frog.puz"), count=True)
    assert (result.engine, result.tried_first, result.count) == ("python", None, 2)


def test_the_kernel_hands_a_value_past_its_words_back_to_python() -> None:
    result = search(compiled_from(DEAR_MOVES), engine="compiled")
    assert (result.engine, result.tried_first) == ("python", "compiled")
    assert result.tried_first_stopped == "a path's cost past 2**62"
    assert result.cost == 12 * 999999999999999999


def test_the_json_names_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(SPECS / "frog.puz"), "--format", "json", "--engine", "compiled"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["engine"] == "compiled" and "tried_first" not in data


def test_engine_help_says_who_answers_and_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(SPECS / "knights.puz"), "--all", "--engine", "help"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "the question: every shortest solution, listed (--all)",
        "  python    the reference searches, in Python; answers it",
        "  compiled  the compiled kernel (numba): the same searches, many times faster on large puzzles; does",
        "            not: every shortest solution and trajectories are found in Python; the kernel runs one",
        "            search",
        "  cpsat     OR-tools' CP-SAT constraint solver, where propagation decides; does not: the constraint",
        "            solver answers fillings (logic puzzles), and this puzzle has moves",
        "  workers   Dask's workers (this machine's cores, or a cluster's), on the kernel; does not: every",
        "            shortest solution and trajectories are found in Python, on one core",
        "  auto      runs it on python (every shortest solution, or their trajectories: the graph of every",
        "            shortest path is kept in Python)",
    ]
    assert max(len(line) for line in lines) <= 100


def test_engine_help_names_the_question_asked_and_what_auto_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(SPECS / "queens.puz"), "--count", "--engine", "help"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "the question: how many solutions there are"
    assert any(line.startswith("  auto      runs python here and compiled and cpsat beside it") for line in lines) or (
        not race.possible()
    )


def test_verbose_says_which_engine_answered_and_what_was_tried_first(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, one_core: None, slow_python: None
) -> None:
    monkeypatch.setattr(table, "FIRST_TRY", 0.05)
    monkeypatch.setattr(registry.COMPILED, "compiled_already", lambda compiled, query: True)
    assert main(["run", str(SPECS / "knights.puz"), "-p", "rows=5", "--reach", "--verbose", "--format", "json"]) == 0
    err = capsys.readouterr().err
    assert err == (
        "puzint: answered by compiled (layered bfs, compiled); python was tried first: not finished in 0.05 s\n"
    )


def test_a_small_logic_puzzle_is_answered_by_python_before_a_solver_loads() -> None:
    result = search(load(SPECS / "killer_shidoku.puz"))
    assert (result.engine, result.tried_first, result.status) == ("python", None, "solved")


def test_a_logic_puzzle_too_long_for_the_first_try_goes_to_the_first_engine_beside_python(
    monkeypatch: pytest.MonkeyPatch, one_core: None, slow_python: None
) -> None:
    monkeypatch.setattr(table, "FIRST_TRY", 0.01)
    monkeypatch.setattr(registry.COMPILED, "compiled_already", lambda compiled, query: True)
    result = search(load(SPECS / "sudoku.puz"), mode="any")  # one solution, and whether it is unique
    assert (result.engine, result.tried_first, result.tried_first_stopped) == (
        "compiled",
        "python",
        "not finished in 0.01 s",
    )
    assert result.unique is True


def test_a_logic_puzzle_the_kernel_cannot_say_goes_to_the_solver(
    monkeypatch: pytest.MonkeyPatch, one_core: None, slow_python: None
) -> None:
    monkeypatch.setattr(table, "FIRST_TRY", 0.01)
    names = [f"X{i}" for i in range(13)]  # a product of 13 unknowns: more combinations than the kernel tabulates
    compiled = compiled_from(f'puzzle "wide"\nfill {", ".join(names)} with 1..2\nrule: {" * ".join(names)} == 2\n')
    result = search(compiled, mode="any")
    assert (result.engine, result.tried_first, result.unique) == ("cpsat", "python", False)


def test_every_solution_found_in_the_first_try_is_the_answer() -> None:
    from puzint.solutions import enumerate_solutions

    compiled = load(SPECS / "latin_square.puz", {"n": "3"})  # far within the try, on a busy machine too
    by_default = enumerate_solutions(compiled, Limits(), keep=True)
    in_python = enumerate_solutions(compiled, Limits(), keep=True, options=RunOptions("python"))
    assert (by_default.engine, by_default.in_all, by_default.states) == ("python", 12, in_python.states)
    assert by_default.solutions == in_python.solutions


def test_a_search_all_moved_to_the_kernel_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, one_core: None, slow_python: None
) -> None:
    monkeypatch.setattr(table, "FIRST_TRY", 0.05)
    monkeypatch.setattr(registry.COMPILED, "compiled_already", lambda compiled, query: True)
    argv = ["run", str(SPECS / "number_circle.puz"), "-p", "n=12", "--count", "--format", "json", "--verbose"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert (data["engine"], data["tried_first"], data["tried_first_stopped"]) == (
        "compiled",
        "python",
        "not finished in 0.05 s",
    )
    assert data["count"] == 3856  # as in specs/number_circle.yaml
    assert captured.err == (
        "puzint: answered by compiled (depth-first enumeration, compiled); "
        "python was tried first: not finished in 0.05 s\n"
    )


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_star_that_fills_the_default_room_goes_on_as_ida_star(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where A* is chosen first (here: the puzzle taken for one whose paths meet, so that IDA*
    does not start at once, plan.method)."""
    from puzint.plan import method
    from puzint.search import limits as limits_module

    monkeypatch.setattr(limits_module, "DEFAULT_MAX_STATES", 500)
    monkeypatch.setattr(method, "TREE_LIKE", 2.0)
    compiled = load(SPECS / "eight_puzzle.puz")
    result = search(compiled, engine=engine)
    assert (result.status, result.length) == ("solved", 31)
    assert result.method.startswith("IDA*") and "A* filled its 500 states first" in result.method
    given = search(compiled, engine=engine, limits=Limits(max_states=500))  # a limit the user set is kept
    assert (given.status, given.limit_reason) == ("limit", "state limit of 500 reached")
    named = search(compiled_from((SPECS / "eight_puzzle.puz").read_text() + "search shortest by astar\n"))
    assert named.status == "limit" and named.method.startswith("A*")  # a method the spec names is kept


def test_the_spec_names_its_method() -> None:
    text = (SPECS / "eight_puzzle.puz").read_text()
    compiled = compiled_from(text + "search shortest by idastar\n")
    assert compiled.puzzle.method == "idastar"
    result = search(compiled, engine="python")
    assert (result.length, result.method) == (31, "IDA*")
    assert search(compiled, method="astar", engine="python").method == "A*"  # the caller's --method wins


def test_a_first_try_stopped_outside_its_search_loop_moves_on(monkeypatch: pytest.MonkeyPatch, one_core: None) -> None:
    """The try's end may come anywhere in the Python engine's run (counting orbits after the
    layers, say), not only at one of its polls: the runner still moves to the next engine."""
    import time

    from puzint.engines.python import PythonEngine

    answer = PythonEngine.search

    def slow_after_the_loop(self: PythonEngine, *args: object) -> object:
        result = answer(self, *args)  # type: ignore[arg-type]
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # plain Python: the timer's stop lands in here
            sum(range(1000))
        return result

    monkeypatch.setattr(PythonEngine, "search", slow_after_the_loop)
    compiled = load(SPECS / "knights.puz")
    with Limits().armed():
        result = search(compiled, reach=True)
    assert (result.engine, result.reachable, result.tried_first) == ("compiled", 18480, "python")


def test_the_kernel_asked_by_name_runs_breadth_first_where_the_default_method_is_from_both_ends() -> None:
    from tests.plain import bishops

    # bishops' default method is from both ends, which the kernel cannot run with safety rules:
    # a method nobody asked for is no reason to refuse; breadth first finds the same length
    compiled = load(SPECS / "bishops.puz")
    assert plan(compiled, Query.of(compiled), RunOptions("compiled")).engines == ("compiled",)
    result = search(compiled, limits=Limits(), engine="compiled")
    assert result.status == "solved" and result.length == bishops.shortest(True)
    assert result.engine == "compiled" and "bidirectional" not in result.method


def test_a_method_asked_by_name_that_the_kernel_cannot_run_is_refused_with_the_one_it_can() -> None:
    compiled = load(SPECS / "bishops.puz")
    with pytest.raises(SpecError) as caught:
        plan(compiled, Query.of(compiled, method="bidirectional"), RunOptions("compiled"))
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.message == (
        "--engine compiled cannot run this: the kernel searches from both ends only plain moves on cells, "
        "not safety rules (--method bfs runs it on the kernel)"
    )


def test_a_process_whose_kernel_answered_a_search_guided_by_tables_runs_the_next_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tables derived from the spec guide the eight puzzle (named by `patterns`): once the
    kernel has answered such a search in this process, the next runs on it alone (no race,
    no copy to load it again); PUZINT_REMEMBER=0, as the tests set it, turns that off."""
    from puzint.api import solve
    from puzint.plan import memory

    monkeypatch.setenv("PUZINT_KEEP_PATTERNS", "0")
    monkeypatch.setattr(memory, "_tables_on_the_kernel", [False])
    eight = str(SPECS / "eight_puzzle.puz")
    first = solve(eight, engine="compiled", patterns="1234,5678")
    assert (first.length, first.data["engine"]) == (31, "compiled") and memory._tables_on_the_kernel[0]
    raced = solve(eight, patterns="1234,5678")
    assert raced.length == 31 and "chosen" not in raced.data  # PUZINT_REMEMBER=0: raced as before
    monkeypatch.setenv("PUZINT_REMEMBER", "1")
    monkeypatch.setattr(memory, "_path", lambda make: None)  # nothing remembered on disk meanwhile
    alone = solve(eight, patterns="1234,5678")
    assert (alone.length, alone.data["engine"], alone.data.get("chosen")) == (31, "compiled", memory.TABLES_HERE)
    untabled = solve(eight)  # the spec's displacement() alone: no tables, raced as ever
    assert untabled.length == 31 and "chosen" not in untabled.data
