"""The workers engine: a `search all` walk split into subtrees that Dask's workers walk at
once. Checked against the one-worker walk on small cases, on a local cluster of two worker
processes that the tests start and stop; its limits stop every worker and report the total."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.runner import load

from tests.conftest import SPECS

pytest.importorskip("distributed")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object], str]:
    code = main(["run", *argv, "--format", "json", "--quiet"])
    out, err = capsys.readouterr()
    return code, json.loads(out) if out else {}, err


@pytest.mark.parametrize(
    ("spec", "params", "solutions"),
    [
        ("number_circle", ["-p", "n=8"], 24),
        ("number_circle", ["-p", "n=10"], 288),
        ("queens_moves", ["-p", "n=6"], 1),  # one up to symmetry, 4 in all
    ],
)
def test_the_same_count_as_one_worker(
    capsys: pytest.CaptureFixture[str], cluster: str, spec: str, params: list[str], solutions: int
) -> None:
    path = str(SPECS / f"{spec}.puz")
    code, alone, _ = run(capsys, path, *params, "--count", "--engine", "compiled")
    code_w, workers, err = run(capsys, path, *params, "--count", "--cluster", cluster)
    assert (code, code_w, err) == (0, 0, "")
    assert workers["engine"] == "workers" and workers["count"] == alone["count"] == solutions
    assert workers["count_in_all"] == alone["count_in_all"]


def test_every_solution_listed_with_its_moves(capsys: pytest.CaptureFixture[str], cluster: str) -> None:
    """Each path, the split's steps then the worker's, is a walk of legal moves to a goal."""
    path = str(SPECS / "number_circle.puz")
    code, listed, _ = run(capsys, path, "-p", "n=8", "--cluster", cluster)
    assert code == 0 and listed["count"] == 24
    compiled = load(Path(path), {"n": "8"})
    finals = set()
    for solution in listed["solutions"]:  # type: ignore[union-attr]
        moves = solution["moves"]
        assert len(moves) == 8  # every number placed, one move each
        finals.add(moves[-1]["board"])
    assert len(finals) == 24
    assert compiled.is_goal(compiled.start) is False


def test_a_limit_stops_every_worker_and_reports_the_total(capsys: pytest.CaptureFixture[str], cluster: str) -> None:
    code, stopped, _ = run(
        capsys, str(SPECS / "number_circle.puz"), "-p", "n=12", "--count", "--cluster", cluster, "--max-states", "5000"
    )
    assert code == 3 and stopped["status"] == "limit" and stopped["limit"] == "state limit of 5,000 reached"
    assert 5000 <= stopped["states"] < 551_601  # what was visited, stopped well before the whole walk


def test_workers_started_here(capsys: pytest.CaptureFixture[str]) -> None:
    code, counted, _ = run(capsys, str(SPECS / "number_circle.puz"), "-p", "n=8", "--count", "--workers", "2")
    assert code == 0 and counted["count"] == 24 and counted["engine"] == "workers"


def test_what_the_workers_do_not_walk_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(SPECS / "bridge_torch.puz"), "--workers", "2"]) == 2
    assert "--workers 2 cannot run this: the cheapest solution is searched on one core" in capsys.readouterr().err
    assert main(["run", str(SPECS / "queens_moves.puz"), "--workers", "2", "--engine", "python"]) == 2
    assert "--workers 2 runs the search on the workers: it does not go with --engine python" in capsys.readouterr().err


def test_a_time_limit_stops_the_workers_and_counts_what_they_walked(
    capsys: pytest.CaptureFixture[str], cluster: str
) -> None:
    code, stopped, _ = run(
        capsys, str(SPECS / "number_circle.puz"), "-p", "n=16", "--count", "--cluster", cluster, "--timeout", "3"
    )
    assert code == 3 and stopped["status"] == "limit" and stopped["limit"] == "time limit of 3 s reached"
    walked = stopped["workers"]["states_per_worker"]  # type: ignore[index]
    assert stopped["states"] > sum(walked.values()) > 0  # the workers' states, and the split's above them


def test_the_api_asks_the_workers(cluster: str) -> None:
    import puzint

    result = puzint.solve("number_circle", n=8, count=True, cluster=cluster)
    assert (result.count, result.data["engine"]) == (24, "workers")
    with pytest.raises(ValueError, match="engine='workers' cannot run this: the cheapest solution is searched on one"):
        puzint.solve("bridge_torch", cluster=cluster)


@pytest.mark.parametrize(("n", "tour"), [(5, True), (4, False)])
def test_one_solution_from_whichever_subtree_holds_one(cluster: str, n: int, tour: bool) -> None:
    """`search any` on the workers: a knight's tour found is a walk of legal moves that ends at
    the goal (5 x 5); on 4 x 4 there is none, as one core proves."""
    from puzint import plan
    from puzint.engines import Query, RunOptions
    from puzint.engines.workers import Workers
    from puzint.search import Limits

    compiled = load(SPECS / "knights_tour.puz", {"n": str(n)})
    options = RunOptions("workers", Workers(address=cluster))
    result = plan.search(compiled, Query.of(compiled, mode="any"), Limits(), options)
    assert result.status == ("solved" if tour else "no-solution") and result.engine == "workers"
    before = compiled.start
    for move, after in result.path:
        assert (after, move) in compiled.expand(before)
        before = after
    assert compiled.is_goal(before) == tour and len(result.path) == (n * n - 1 if tour else 0)


def test_the_command_line_sends_search_any_to_the_cluster_asked(
    capsys: pytest.CaptureFixture[str], cluster: str
) -> None:
    code, found, _ = run(capsys, str(SPECS / "knights_tour.puz"), "-p", "n=5", "--cluster", cluster)
    assert (code, found["status"], found["length"], found["engine"]) == (0, "solved", 24, "workers")
