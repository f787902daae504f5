"""Breadth-first layers across the workers (engines.layers_across): `--reach`, the shortest
solution and the number of shortest solutions on a local cluster of two worker processes,
checked against the one-core kernel; their limits and refusals."""

from __future__ import annotations

import json

import pytest
from puzint.cli import main
from puzint.runner import load

from tests.conftest import SPECS

pytest.importorskip("distributed")

FIGURES = ("status", "length", "count", "reachable", "depth", "layers", "reachable_goals", "reachable_up_to_symmetry")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object], str]:
    code = main(["run", *argv, "--format", "json", "--quiet"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else {}, err


@pytest.mark.parametrize(
    ("spec", "asked"),
    [
        ("knights", ["--reach"]),  # 18,480 states, 9,328 up to its mirror symmetry
        ("amida", ["--reach"]),  # every move undone by a move
        ("peg_triangle", ["--reach"]),  # moves that cannot be undone; 4 goal states
        ("frog", ["--count"]),
        ("jealous_husbands", ["--count"]),  # on the kernel's machine
        ("jealous_husbands", []),
        ("missionaries", ["--reach"]),
    ],
)
def test_the_same_figures_as_one_core(
    capsys: pytest.CaptureFixture[str], cluster: str, spec: str, asked: list[str]
) -> None:
    path = str(SPECS / f"{spec}.puz")
    code, alone, _ = run(capsys, path, *asked, "--engine", "compiled")
    code_w, spread, err = run(capsys, path, *asked, "--cluster", cluster)
    assert (code, code_w, err, spread["engine"]) == (0, 0, "", "workers")
    assert {k: spread.get(k) for k in FIGURES} == {k: alone.get(k) for k in FIGURES}
    workers = spread["workers"]
    assert isinstance(workers, dict) and workers["workers"] == 2
    held = workers["states_per_worker"]
    assert len(held) == 2 and all(states > 0 for states in held.values())
    if "--reach" in asked:
        assert sum(held.values()) == spread["reachable"]


@pytest.mark.parametrize(
    ("spec", "params", "length"),
    [
        ("frog", {}, 15),  # parents kept: each read from its share
        ("jealous_husbands", {}, 11),
        ("amida", {"bottom": "FBDEAHCG"}, 12),  # every move undone by a move: parents found again
        ("knights", {}, 16),
    ],
)
def test_the_solution_is_a_walk_of_legal_moves_read_back_across_the_workers(
    cluster: str, spec: str, params: dict[str, str], length: int
) -> None:
    from puzint import plan
    from puzint.engines import Query, RunOptions
    from puzint.engines.workers import Workers
    from puzint.search import Limits

    compiled = load(SPECS / f"{spec}.puz", params)
    options = RunOptions("workers", Workers(address=cluster))
    result = plan.search(compiled, Query.of(compiled, mode="shortest"), Limits(), options)
    assert (result.status, result.length, result.engine) == ("solved", length, "workers")
    before = compiled.start
    for move, after in result.path:
        assert (after, move) in compiled.expand(before)
        before = after
    assert compiled.is_goal(before)


def test_a_state_limit_stops_every_share(capsys: pytest.CaptureFixture[str], cluster: str) -> None:
    code, stopped, _ = run(capsys, str(SPECS / "amida.puz"), "--reach", "--cluster", cluster, "--max-states", "300")
    assert (code, stopped["status"], stopped["limit"]) == (3, "limit", "state limit of 300 reached")
    assert 100 < stopped["states"] <= 300  # type: ignore[operator]


def test_a_time_limit_stops_every_share(capsys: pytest.CaptureFixture[str], cluster: str) -> None:
    """Each share stops its expansion at the time left, and the run reports what was stored."""
    path = str(SPECS / "amida.puz")
    code, stopped, _ = run(
        capsys, path, "-p", "bottom=random", "-p", "n=11", "--reach", "--cluster", cluster, "--timeout", "2"
    )
    assert (code, stopped["status"], stopped["limit"]) == (3, "limit", "time limit of 2 s reached")
    assert 1 < stopped["states"] < 39_916_800  # type: ignore[operator]


@pytest.mark.parametrize(
    ("spec", "asked", "why"),
    [
        ("eight_puzzle", ["--reach", "--from-goal"], "--reach --from-goal runs on one core"),
        ("knights", ["--count"], "the shortest solutions are counted up to symmetry on one core"),
        ("pocket_cube", ["--reach"], "the workers' layers hold states of one 64-bit word"),
        ("eight_puzzle", ["--method", "idastar"], "--method idastar runs on one core"),
    ],
)
def test_what_the_layers_do_not_answer_is_refused(
    capsys: pytest.CaptureFixture[str], spec: str, asked: list[str], why: str
) -> None:
    assert main(["run", str(SPECS / f"{spec}.puz"), *asked, "--workers", "2"]) == 2
    assert f"--workers 2 cannot run this: {why}" in capsys.readouterr().err


def test_a_worker_that_dies_is_reported() -> None:
    """A worker killed in the middle of a search takes its share of the states with it: the run
    stops and says which worker stopped, with the states stored until then."""
    import logging
    import os
    import signal

    import distributed
    from puzint import plan
    from puzint.engines import Query, RunOptions
    from puzint.engines.workers import Workers
    from puzint.search import Limits

    compiled = load(SPECS / "amida.puz", {"bottom": "random", "n": "11"})
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.CRITICAL
        ) as local,
        distributed.Client(local) as client,
    ):
        victim = max(client.run(os.getpid).values())
        killed: list[int] = []

        def progress(states: int, at: str, engine: str) -> None:
            if states > 1000 and not killed:  # the search is under way: one worker goes
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        limits = Limits(max_states=100_000_000, progress=progress)
        options = RunOptions("workers", Workers(address=local.scheduler_address))
        result = plan.search(compiled, Query.of(compiled, reach=True), limits, options)
    assert killed and result.status == "limit" and result.limit_reason is not None
    assert result.limit_reason.startswith("the worker at tcp://127.0.0.1:"), result.limit_reason
    assert result.limit_reason.endswith("stopped, and its share of the states with it")
    assert 1000 < result.states < 39_916_800
