"""Differential fuzzing of fillings: small random logic puzzles (sums, counts, `all
different`, conditions on one cell or two, quantifiers, `first(x, d)`, givens, empty cells) solved by every engine that
answers them — the fill searches in Python (the propagating one and the one of forward
checking, each also run itself), the kernel's fill search, CP-SAT — and by a plain
walk of every filling, which checks each rule on each complete filling and nothing else. Every
engine must find exactly the plain walk's solutions.

A fixed seed and a few dozen puzzles run by default; `pytest -m fuzz` (PUZINT_FUZZ=N puzzles)
hunts longer."""

from __future__ import annotations

import importlib.util
import itertools
import os
import random

import pytest
from puzint import kernel
from puzint.compiler import CompiledPuzzle
from puzint.compiler.families import FillFamily
from puzint.engines import Query, RunOptions, registry
from puzint.engines.python import fill_model
from puzint.search import Limits, fill, propagation
from puzint.solutions import enumerate_solutions

from tests.conftest import compiled_from

ENGINES_HERE = ["python"]
if importlib.util.find_spec("ortools") is not None:
    ENGINES_HERE.append("cpsat")
if kernel.installed() and not kernel.jit_disabled():
    ENGINES_HERE.append("compiled")


def random_filling(rng: random.Random) -> str:
    while True:  # at most a few thousand fillings, for the plain walk
        rows, cols = rng.randint(1, 3), rng.randint(2, 3)
        k = rng.randint(2, 4)
        empty = rng.random() < 0.4
        if (k + empty) ** (rows * cols) <= 5000:
            break
    cells = [f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)]
    lines = [
        'puzzle "fuzz"',
        f"board grid {rows} x {cols}",
        f'pieces 1..{k} "numbers"',
    ]
    if rng.random() < 0.4:
        given = [str(rng.randint(1, k)) if rng.random() < 0.2 else "_" for _ in range(rows * cols)]
        given[rng.randrange(rows * cols)] = "_"  # something left open
        lines.append("start:")
        for r in range(rows):
            lines.append("    " + " ".join(given[r * cols : (r + 1) * cols]))
    lines.append(f"fill cells with 1..{k}" + (" or empty" if empty else ""))
    rules = []
    for _ in range(rng.randint(1, 4)):
        a, b = rng.sample(cells, 2)
        line = rng.choice(["rows", "columns"])
        v = rng.randint(1, k)
        choices = [
            f"every l in {line}: all different(l)",
            f"count(c in cells if c is empty) {rng.choice(['<=', '>=', '=='])} {rng.randint(0, 3)}",
            f"{a} is empty or {b} is empty",
            f"not ({a} is empty)",
            f"every l in {line}: count(c in l if c is empty) <= 1",
            f"every l in {line}: some c in l: c is empty",
            f"not ({a} is empty and {b} is empty) or {b} is empty",
            f"no number q: some d in {rng.choice(['orthogonal', 'diagonal', 'king'])}: first(q, d) is number",
            "every number q: some d in orthogonal: first(q, d) is empty",
        ]
        if not empty:
            total = rng.randint(2, 3 * k)
            choices += [
                f"every l in {line}: sum(c.value for c in l) {rng.choice(['<=', '>=', '==', '<', '>'])} {total}",
                f"{a}.value {rng.choice(['!=', '==', '<', '>='])} {b}.value",
                f"{a}.value * {b}.value {rng.choice(['<=', '>='])} {rng.randint(1, k * k)}",
                f"count(c in cells if c.value == {v}) {rng.choice(['<=', '>=', '=='])} {rng.randint(0, 3)}",
                f"2 * {a}.value - {b}.value {rng.choice(['<=', '>=', '=='])} {rng.randint(-k, 2 * k)}",
                f"{a}.value == {v} or {b}.value != {v}",
            ]
        rules.append(rng.choice(choices))
    lines.append("rule:")
    lines += ["    " + rule for rule in rules]
    return "\n".join(lines) + "\n"


def plain_solutions(compiled: CompiledPuzzle) -> set[bytes]:
    """Every complete filling, each rule checked on it (nothing propagated, nothing cut)."""
    family = compiled.filling
    assert family is not None
    rules = [compiled.evaluator.function(rule.condition) for rule in compiled.puzzle.rules]
    slots = [max(2, rule.slots) for rule in compiled.puzzle.rules]
    found = set()
    for values in itertools.product(*(var.values for var in family.vars)):
        state = compiled.start
        for k, value in enumerate(values):
            state = family.set_thing(state, k, value)
        if all(rule(state, [None] * n) for rule, n in zip(rules, slots, strict=True)):
            found.add(state)
    return found


def solutions(compiled: CompiledPuzzle, engine: str) -> set[bytes] | None:
    if registry.engine(engine).why_not(compiled, Query.of(compiled)) is not None:
        return None
    report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    assert report.status in ("solved", "no-solution"), report.status
    family = compiled.filling
    assert family is not None
    return {bytes(path[-1][1]) if path else compiled.start for path in report.solutions}


def _progress_free(compiled: CompiledPuzzle, states: set[bytes]) -> set[bytes]:
    """The states with the filling's progress counter set aside (the walk counts what it decided)."""
    family = compiled.filling
    assert family is not None
    out = set()
    for state in states:
        mended = bytearray(state)
        compiled.layout.write_counter(mended, family.progress, 0)
        out.add(bytes(mended))
    return out


def python_fill_searches(compiled: CompiledPuzzle) -> dict[str, set[bytes]]:
    """The Python engine's two fill searches, each run itself: the propagating one
    (search/propagation.py) where the kernel's model says the rules, which is where the
    engine takes it, and the one of forward checking (search/fill.py), which the engine
    takes elsewhere, on every filling."""
    family = compiled.filling
    assert isinstance(family, FillFamily)
    problem = family.problem(compiled.start)
    searches = {"python, forward checking": fill.fillings(problem, Limits(), [0])}
    model = fill_model(compiled)
    if model is not None:
        searches["python, propagation"] = propagation.fillings(model, problem.path, Limits(), [0])
    return {name: {path[-1][1] if path else compiled.start for path in paths} for name, paths in searches.items()}


def check(seed: int) -> None:
    rng = random.Random(seed)
    text = random_filling(rng)
    compiled = compiled_from(text)
    expected = _progress_free(compiled, plain_solutions(compiled))
    for engine in ENGINES_HERE:
        found = solutions(compiled, engine)
        if found is None:
            continue
        assert _progress_free(compiled, found) == expected, f"{engine} on seed {seed}:\n{text}"
    for search, found in python_fill_searches(compiled).items():
        assert _progress_free(compiled, found) == expected, f"{search} on seed {seed}:\n{text}"


@pytest.mark.parametrize("seed", range(40))
def test_every_filling_engine_finds_the_plain_walk_s_solutions(seed: int) -> None:
    check(seed)


@pytest.mark.fuzz
def test_a_long_hunt() -> None:
    for seed in range(1000, 1000 + int(os.environ.get("PUZINT_FUZZ", "2000"))):
        check(seed)
