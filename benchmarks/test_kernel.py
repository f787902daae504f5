"""pytest-benchmark: the compiled kernel against the hand-written Python solvers and puzint's
Python engine, on the same instances (not part of the default test run):

    pytest benchmarks/test_kernel.py --benchmark-enable --benchmark-only -o addopts=""

Only the search is timed; the kernel is called once before timing (its cached code loaded).
benchmarks/report_kernel.py runs the larger cases, each in a fresh process, as ratios.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.kernel import installed
from puzint.runner import load, search
from tests.plain import lights_out

from benchmarks import handwritten as hw

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")
SPECS = Path(__file__).resolve().parent.parent / "specs"
CASES = {
    "eight puzzle reach": ("eight_puzzle", {}, hw.eight_reachable, 181_440),
    "oshidori n=7 reach": ("oshidori", {"n": "7"}, lambda: hw.oshidori_reachable(7), None),
    "Lights Out 4 x 4 reach": ("lights_out", {"n": "4"}, lambda: (None, lights_out.reachable(4)), 4_096),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_handwritten(benchmark, name: str) -> None:  # type: ignore[no-untyped-def]
    _, _, solver, states = CASES[name]
    _, found = benchmark(solver)
    assert states is None or found == states


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_puzint(benchmark, name: str, engine: str) -> None:  # type: ignore[no-untyped-def]
    spec, params, solver, _ = CASES[name]
    compiled = load(SPECS / f"{spec}.puz", params)
    search(compiled, reach=True, engine=engine)  # the kernel's code loaded before timing
    result = benchmark(lambda: search(compiled, reach=True, engine=engine))
    assert result.reachable == solver()[1]
    assert result.method.endswith(", compiled") == (engine == "compiled")
