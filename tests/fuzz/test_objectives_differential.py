"""Differential fuzzing of objectives: the small random logic puzzles of
test_fillings_differential, each with a random `maximize` or `minimize` line, solved by every
engine that answers them, and by a plain walk of every filling that keeps the rules, which
keeps those of the best value and nothing else. Every engine must find exactly those, and
the same best value.

A fixed seed and a few dozen puzzles run by default; `pytest -m fuzz` (PUZINT_FUZZ=N puzzles)
hunts longer."""

from __future__ import annotations

import os
import random

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.engines import Query, RunOptions, registry
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import compiled_from
from tests.fuzz.test_fillings_differential import ENGINES_HERE, _progress_free, plain_solutions, random_filling


def random_objective(rng: random.Random, text: str) -> str:
    """A number of the filling: of its cells' values where no cell may stay empty, else of
    the empty cells and the pieces' kinds."""
    rows, cols = (int(n) for n in text.split("board grid ")[1].split("\n")[0].split(" x "))
    cells = [f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)]
    a, b = rng.choice(cells), rng.choice(cells)
    r = rng.randint(1, rows)
    choices = [
        "count(c in cells if c is empty)",
        f"count(c in cells if c is empty and c.row == {r}) - count(c in cells if c is empty and c.row != {r})",
        "3 * count(c in cells if c is empty and c.col == 1) + count(c in cells if c is number)",
    ]
    if "or empty" not in text:
        choices += [
            f"{a}.value * {b}.value - {rng.randint(0, 5)} * {rng.choice(cells)}.value",
            f"sum(c.value for c in cells if c.row == {r})",
            f"10 * {a}.value + {b}.value",
            "sum(c.value * c.col for c in cells)",
        ]
    return f"{rng.choice(['maximize', 'minimize'])} {rng.choice(choices)}\n"


def plain_best(compiled: CompiledPuzzle) -> tuple[int | None, set[bytes]]:
    """Every filling that keeps the rules (the plain walk), kept to those of the best value."""
    objective, value = compiled.puzzle.objective, compiled.objective_value
    assert objective is not None and value is not None
    found = plain_solutions(compiled)
    if not found:
        return None, set()
    top = (max if objective.maximize else min)(value(state) for state in found)
    return top, {state for state in found if value(state) == top}


def check(seed: int) -> None:
    rng = random.Random(seed)
    text = random_filling(rng)
    text += random_objective(rng, text)
    compiled = compiled_from(text)
    top, kept = plain_best(compiled)
    expected = _progress_free(compiled, kept)
    for engine in ENGINES_HERE:
        if registry.engine(engine).why_not(compiled, Query.of(compiled)) is not None:
            continue
        report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
        assert report.status in ("solved", "no-solution"), report.status
        found = {path[-1][1] if path else compiled.start for path in report.solutions}
        assert (report.optimum, _progress_free(compiled, found)) == (top, expected), f"{engine}, seed {seed}:\n{text}"


@pytest.mark.parametrize("seed", range(40))
def test_every_engine_finds_the_plain_walk_s_best_fillings(seed: int) -> None:
    check(seed)


@pytest.mark.fuzz
def test_a_long_hunt() -> None:
    for seed in range(1000, 1000 + int(os.environ.get("PUZINT_FUZZ", "2000"))):
        check(seed)
