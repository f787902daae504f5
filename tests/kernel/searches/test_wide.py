"""Breadth-first searches on states wider than a word (`kernel.searches.wide`) give the
Python engine's answers: the shortest solution, path counts, reachable states and goals, the
solution move by move, and the same stop at a state limit; symmetries on such states stay
with Python."""

from __future__ import annotations

import pytest
from puzint.kernel import installed
from puzint.kernel.machine.assembly import build
from puzint.runner import kernel_unfit, load, search
from puzint.search import Limits
from puzint.search.result import LIMIT, SOLVED, SearchResult

from tests.conftest import SPECS

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")


def answer(result: SearchResult) -> tuple[object, ...]:
    return (
        result.status,
        result.states,
        result.length,
        result.count,
        result.reachable,
        result.reachable_goals,
        result.path,
        result.limit_reason,
    )


@pytest.mark.parametrize(
    ("count", "reach", "method"), [(False, False, "bfs"), (True, False, "auto"), (False, True, "auto")]
)
def test_hanoi_of_eight_discs_takes_two_words_and_answers_alike(count: bool, reach: bool, method: str) -> None:
    compiled = load(SPECS / "hanoi.puz", {"discs": "8"})
    assert build(compiled).words == 2
    assert kernel_unfit(compiled, count, reach, method, None) is None
    python = search(compiled, count=count, reach=reach, method=method, engine="python")
    kernel = search(compiled, count=count, reach=reach, method=method, engine="compiled")
    assert kernel.method == python.method + ", compiled"
    assert answer(kernel) == answer(python)
    assert kernel.status == SOLVED and kernel.length == 255
    assert kernel.bytes_per_state is not None and kernel.bytes_per_state < 48


@pytest.mark.parametrize("limit", [1, 100, 3_000])
def test_a_state_limit_stops_both_alike(limit: int) -> None:
    compiled = load(SPECS / "hanoi.puz", {"discs": "8"})
    python = search(compiled, reach=True, limits=Limits(max_states=limit), engine="python")
    kernel = search(compiled, reach=True, limits=Limits(max_states=limit), engine="compiled")
    assert answer(kernel) == answer(python) and kernel.status == LIMIT


def test_symmetries_on_wide_states_are_left_to_python() -> None:
    compiled = load(SPECS / "lights_out.puz", {"n": "8"})  # 64 cells of a bit, and symmetries
    unfit = kernel_unfit(compiled, False, True, "auto", None)
    assert unfit is not None and unfit.endswith("with symmetries")
