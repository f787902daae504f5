"""Amida-kuji: heuristic search, generated goals and the ladder drawing."""

from __future__ import annotations

import itertools
import random

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.language.expressions import LABELS
from puzint.render.ladder import pack, row_text
from puzint.runner import search
from puzint.search import Limits, layers

from tests.conftest import SPECS, compiled_from

AMIDA = (SPECS / "amida.puz").read_text()


def inversions(row: str) -> int:
    return sum(1 for a, b in itertools.combinations(row, 2) if a > b)


def amida(**params: object) -> CompiledPuzzle:
    compiled = compiled_from(AMIDA, **params)
    assert isinstance(compiled, CompiledPuzzle)
    return compiled


@pytest.mark.parametrize("seed", range(12))
def test_breadth_first_length_is_the_number_of_inversions(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 8)
    row = "".join(rng.sample(LABELS[:n], n))
    assert search(amida(bottom=row), method="bfs").length == inversions(row)
    assert search(amida(bottom=row), method="astar").length == inversions(row)


def test_the_heuristic_is_consistent_on_every_state_of_a_small_instance() -> None:
    compiled = amida(bottom="CEADB")
    estimate = compiled.estimate
    assert estimate is not None and estimate(compiled.goal_state or b"") == 0
    result = layers.explore(compiled, Limits(), exhaustive=True)
    assert result.reachable == 120  # every order of 5 labels
    seen, frontier = {compiled.start}, [compiled.start]
    while frontier:
        state = frontier.pop()
        for child, _ in compiled.expand(state):
            assert abs(estimate(state) - estimate(child)) <= 1  # consistent: one move, at most one less
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) == 120


def test_idastar_agrees_with_astar() -> None:
    for row in ("FBDEAC", "DEAFBC", "JFBHIADEGC"):
        assert search(amida(bottom=row), method="idastar").length == inversions(row)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fifty_two_lines_solve_optimally(seed: int) -> None:
    compiled = amida(bottom="random", n=52, seed=seed)
    row = "".join(compiled.puzzle.symbol(c) for c in compiled.goal_state or b"")
    result = search(compiled)
    assert result.length == inversions(row) > 0
    # A*, or IDA* from the start where plan.method finds the first layers of paths tree-like enough
    assert result.method.split(",")[0] in ("A*", "IDA*")


@pytest.mark.parametrize("seed", range(20))
def test_random_bottom_rows_are_inseparable_and_reproducible(seed: int) -> None:
    n = 2 + seed % 9
    first = amida(bottom="random", n=n, seed=seed).goal_state
    assert first == amida(bottom="random", n=n, seed=seed).goal_state
    row = "".join(LABELS[c - 1] for c in first or b"")
    assert sorted(row) == list(LABELS[:n])
    assert all(set(row[:k]) != set(LABELS[:k]) for k in range(1, n))


def test_rungs_pack_into_rows_as_the_seed_draws_them() -> None:
    rows = [row_text(r, 6) for r in pack([2, 1, 0, 3, 2, 1, 4, 3])]
    assert rows == ["| | |-| | |", "| |-| |-| |", "|-| |-| |-|", "| |-| |-| |"]
