"""pytest-benchmark: the compiled kernel against the hand-written Python solvers and puzint's
Python engine, on the same instances (not part of the default test run):

    pytest benchmarks/test_kernel.py --benchmark-enable --benchmark-only -o addopts=""

Only the search is timed; the kernel is called once before timing (its cached code loaded).
benchmarks/report_kernel.py runs the larger cases, each in a fresh process, as ratios.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.engines import RunOptions
from puzint.kernel import installed
from puzint.runner import load, search
from puzint.search import Limits
from puzint.solutions import enumerate_solutions
from tests.plain import bridge_torch, hanoi, lights_out

from benchmarks import handwritten as hw
from benchmarks import handwritten_more as more

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")
SPECS = Path(__file__).resolve().parent.parent / "specs"
WALKERS = [1, 2, 5, 10, 12, 15, 20, 25, 30]
# name: (spec, params, question, the hand-written solver's answer: states, solutions or cost)
CASES: dict[str, tuple[str, dict[str, str], str, Callable[[], int]]] = {
    "eight puzzle reach": ("eight_puzzle", {}, "reach", lambda: hw.eight_reachable()[1]),
    "oshidori n=7 reach": ("oshidori", {"n": "7"}, "reach", lambda: hw.oshidori_reachable(7)[1]),
    "Lights Out 4 x 4 reach": ("lights_out", {"n": "4"}, "reach", lambda: lights_out.reachable(4)),
    "Hanoi 9 discs reach (two words a state)": ("hanoi", {"discs": "9"}, "reach", lambda: hanoi.reachable(9)),
    "number circle n=10 all": ("number_circle", {"n": "10"}, "all", lambda: more.number_circle_count(10)),
    "bridge & torch, 9 walkers, cheapest": (
        "bridge_torch",
        {"times": str(WALKERS)},
        "cheapest",
        lambda: bridge_torch.cheapest(WALKERS)[0],
    ),
}


def answer(compiled: CompiledPuzzle, question: str, engine: str) -> int | None:
    if question == "all":
        return enumerate_solutions(compiled, Limits(), keep=False, options=RunOptions(engine)).in_all
    result = search(compiled, reach=question == "reach", engine=engine)
    assert result.method.endswith(", compiled") == (engine == "compiled")
    return result.reachable if question == "reach" else result.cost


@pytest.mark.parametrize("name", sorted(CASES))
def test_handwritten(benchmark, name: str) -> None:  # type: ignore[no-untyped-def]
    solver = CASES[name][3]
    assert benchmark(solver) == solver()


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_puzint(benchmark, name: str, engine: str) -> None:  # type: ignore[no-untyped-def]
    spec, params, question, solver = CASES[name]
    compiled = load(SPECS / f"{spec}.puz", params)
    answer(compiled, question, engine)  # the kernel's code loaded before timing
    assert benchmark(lambda: answer(compiled, question, engine)) == solver()
