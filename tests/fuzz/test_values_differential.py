"""Differential fuzzing at the edges of the numbers: fillings whose values lie near 10**6,
10**12, 2**31, 2**62 and 10**18, and whose rules multiply, add many of them, take `abs`,
`min` and `max` and sum conditionally, so that every intermediate value may pass what an
engine's words hold. Every engine that answers (the fill search in Python, the kernel's fill
search, CP-SAT) and the default (`auto`: the race, and the engine it remembers) must find
exactly the solutions of a plain walk, which evaluates each rule with Python's integers from
the generator's own tree (never with puzint's evaluator); an engine may refuse a puzzle, with
its reason, never answer it wrongly.

A fixed set of examples runs by default; `pytest -m fuzz tests/fuzz/test_values_differential.py`
(PUZINT_FUZZ_EXAMPLES=N, 2,000 by default; `--hypothesis-seed=N`) hunts longer. hypothesis
shrinks a disagreement to a small spec, which becomes a test in tests/engines/test_value_ranges.py.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from puzint.engines import Query, RunOptions, registry
from puzint.engines.python import PythonEngine
from puzint.errors import SpecError
from puzint.plan import memory, race
from puzint.runner import search
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import compiled_from
from tests.fuzz.test_fillings_differential import ENGINES_HERE

CENTRES = [0, 10**6, -(10**6), 10**12, 2**31, -(2**31), 2**62, 10**18 - 8, -(10**18) + 8]
DIGITS = 10**17  # a literal of puzint holds at most 18 digits: larger constants are written as products


def literal(value: int) -> str:
    """A constant as the spec writes it: one literal, or sums of products of literals."""
    if abs(value) < 10**18:
        return str(value) if value >= 0 else f"(0 - {-value})"
    high, low = divmod(value, DIGITS)
    return f"({literal(high)} * {DIGITS} + {low})"


@dataclass(frozen=True)
class Num:
    """A number of the rule: its text in the spec, and its value for each filling."""

    text: str
    value: Callable[[dict[str, int]], int]


@dataclass(frozen=True)
class Puzzle:
    text: str
    names: tuple[str, ...]  # the things, in the filling's order
    domains: tuple[tuple[int, ...], ...]
    holds: Callable[[dict[str, int]], bool]
    on_cells: bool
    raced: bool = False  # also asked of `auto` with Python held back, so that the race's copy answers

    def solutions(self) -> set[tuple[int, ...]]:
        found = set()
        for values in itertools.product(*self.domains):
            if self.holds(dict(zip(self.names, values, strict=True))):
                found.add(values)
        return found


def _domain(draw: st.DrawFn) -> tuple[int, ...]:
    centre = draw(st.sampled_from(CENTRES))
    low = centre + draw(st.integers(-3, 3))
    return tuple(range(low, low + draw(st.integers(1, 4))))


def _numbers(leaves: list[Num], draw: st.DrawFn, depth: int) -> Num:
    """A random expression over the leaves: +, -, *, unary minus, abs, min, max."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        if draw(st.integers(0, 4)) == 0:
            constant = draw(st.sampled_from(CENTRES)) + draw(st.integers(-2, 2))
            return Num(literal(constant), lambda env, c=constant: c)
        return draw(st.sampled_from(leaves))
    op = draw(st.sampled_from(["+", "-", "*", "*", "neg", "abs", "min", "max"]))
    a = _numbers(leaves, draw, depth - 1)
    if op == "neg":
        return Num(f"-({a.text})", lambda env: -a.value(env))
    if op == "abs":
        return Num(f"abs({a.text})", lambda env: abs(a.value(env)))
    b = _numbers(leaves, draw, depth - 1)
    if op in ("min", "max"):
        pick = min if op == "min" else max
        return Num(f"{op}({a.text}, {b.text})", lambda env: pick(a.value(env), b.value(env)))
    combine = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[op]
    return Num(f"({a.text} {op} {b.text})", lambda env: combine(a.value(env), b.value(env)))


COMPARE: dict[str, Callable[[int, int], bool]] = {
    "==": lambda x, y: x == y,
    "!=": lambda x, y: x != y,
    "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y,
    ">": lambda x, y: x > y,
    ">=": lambda x, y: x >= y,
}


def _comparison(
    draw: st.DrawFn, number: Num, names: tuple[str, ...], domains: tuple[tuple[int, ...], ...]
) -> tuple[str, Callable[[dict[str, int]], bool]]:
    """`number OP K`, K near the number's value at one filling (so that `==` holds somewhere)."""
    at = {name: draw(st.sampled_from(domain)) for name, domain in zip(names, domains, strict=True)}
    k = number.value(at) + draw(st.integers(-1, 1))
    op = draw(st.sampled_from(sorted(COMPARE)))
    test = COMPARE[op]
    return f"{number.text} {op} {literal(k)}", lambda env: test(number.value(env), k)


@st.composite
def counter_puzzles(draw: st.DrawFn) -> Puzzle:
    """Counters near the edges, and a rule (or two) of products, sums, abs, min, max."""
    names = tuple("ABC"[: draw(st.integers(1, 3))])
    domains = tuple(_domain(draw) for _ in names)
    leaves = [Num(name, lambda env, n=name: env[n]) for name in names]
    rules, tests = [], []
    for _ in range(draw(st.integers(1, 2))):
        text, test = _comparison(draw, _numbers(leaves, draw, draw(st.integers(1, 3))), names, domains)
        rules.append(text)
        tests.append(test)
    lines = ['puzzle "edges"']
    lines += [f"fill {name} with {literal(d[0])}..{literal(d[-1])}" for name, d in zip(names, domains, strict=True)]
    lines += ["rule:", *(f"    {rule}" for rule in rules)]
    holds = lambda env: all(t(env) for t in tests)  # noqa: E731
    return Puzzle("\n".join(lines) + "\n", names, domains, holds, False, draw(st.integers(0, 4)) == 0)


@st.composite
def cell_puzzles(draw: st.DrawFn) -> Puzzle:
    """Numbered pieces of large values on a line of cells: long sums, conditional sums, products
    of two cells."""
    cells = draw(st.integers(2, 6))
    values = _domain(draw)
    values = tuple(v for v in values if v > 0) or (1, 2)
    if len(values) ** cells > 4096:
        cells = 2
    names = tuple(f"c{i}" for i in range(1, cells + 1))
    domains = tuple(values for _ in names)
    threshold = values[0] + draw(st.integers(0, len(values)))
    shape = draw(st.sampled_from(["sum", "conditional", "product", "difference"]))
    if shape == "sum":
        number = Num("sum(c.value for c in cells)", lambda env: sum(env.values()))
    elif shape == "conditional":
        number = Num(
            f"sum(c.value for c in cells if c.value >= {threshold})",
            lambda env: sum(v for v in env.values() if v >= threshold),
        )
    elif shape == "product":
        number = Num(f"cell({cells}).value * cell(1).value", lambda env: env[f"c{cells}"] * env["c1"])
    else:
        number = Num(
            f"abs(cell({cells}).value - cell(1).value) * {literal(values[0])}",
            lambda env: abs(env[f"c{cells}"] - env["c1"]) * values[0],
        )
    text, test = _comparison(draw, number, names, domains)
    lines = [
        'puzzle "edges on cells"',
        f"board line {cells}",
        f'pieces {literal(values[0])}..{literal(values[-1])} "numbers"',
        f"fill cells with {literal(values[0])}..{literal(values[-1])}",
        f"rule: {text}",
    ]
    return Puzzle("\n".join(lines) + "\n", names, domains, test, True, draw(st.integers(0, 4)) == 0)


def found_values(compiled: object, paths: list[list[tuple[int, bytes]]], puzzle: Puzzle) -> set[tuple[int, ...]]:
    out = set()
    for path in paths:
        state = path[-1][1] if path else compiled.start  # type: ignore[attr-defined]
        decoded = compiled.layout.decode(state)  # type: ignore[attr-defined]
        if puzzle.on_cells:
            pieces = compiled.puzzle.pieces  # type: ignore[attr-defined]
            out.add(tuple(pieces[code - 1].value for code in decoded.cells))
        else:
            out.add(tuple(decoded.counters[: len(puzzle.names)]))
    return out


def check(puzzle: Puzzle) -> None:
    note(puzzle.text)
    try:
        compiled = compiled_from(puzzle.text)
    except SpecError as refused:  # a literal range too wide, a value the language refuses: said, with its place
        assert refused.diagnostics and refused.diagnostics[0].pos.line > 0, str(refused)
        return
    expected = puzzle.solutions()
    for engine in [*ENGINES_HERE, "auto"]:
        if engine != "auto" and registry.engine(engine).why_not(compiled, Query.of(compiled)) is not None:
            continue  # refused with its reason (tests/engines/test_value_ranges.py checks the reasons)
        report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
        assert report.status in ("solved", "no-solution"), (engine, report.status)
        assert found_values(compiled, report.solutions, puzzle) == expected, engine
    for engine in [*ENGINES_HERE, "auto"]:
        if engine != "auto" and registry.engine(engine).why_not(compiled, Query.of(compiled, mode="any")) is not None:
            continue
        check_one(compiled, puzzle, expected, engine)
    with remembering():  # the race, then the engine it remembered, asked alone
        for _ in range(2):
            check_one(compiled, puzzle, expected, "auto")
    if puzzle.raced and race.possible():
        with python_stalled():  # the race's other engine answers, in its copy of this process
            check_one(compiled, puzzle, expected, "auto")


def check_one(compiled: object, puzzle: Puzzle, expected: set[tuple[int, ...]], engine: str) -> None:
    """`search any`: a solution where there is one, and whether it is the only one."""
    one = search(compiled, mode="any", engine=engine)  # type: ignore[arg-type]
    assert one.status == ("solved" if expected else "no-solution"), engine
    if expected:
        assert found_values(compiled, [one.path], puzzle) <= expected, engine
        assert one.unique is (len(expected) == 1), (engine, one.unique, one.unique_unknown)


@contextlib.contextmanager
def python_stalled() -> Iterator[None]:
    """Python's next search polls its limits and finds nothing until the race stops it (or,
    where no other engine can answer, for a few seconds: then it searches)."""
    fast = PythonEngine.search
    calls = [0]

    def stalled(self: PythonEngine, compiled: Any, query: Any, limits: Limits) -> Any:
        calls[0] += 1
        deadline = time.monotonic() + 5
        while calls[0] == 1 and time.monotonic() < deadline:  # a LimitReached ends it: the other is ahead
            limits.check(0)
            time.sleep(0.005)
        return fast(self, compiled, query, limits)

    PythonEngine.search = stalled  # type: ignore[method-assign]
    try:
        yield
    finally:
        PythonEngine.search = fast  # type: ignore[method-assign]


@contextlib.contextmanager
def remembering() -> Iterator[None]:
    """The engine that answered first remembered (the suite turns it off), in a file of its own."""
    with tempfile.TemporaryDirectory() as folder:
        kept = Path(folder) / memory.FILE
        before = memory._path
        memory._path = lambda make: kept  # type: ignore[assignment]
        try:
            yield
        finally:
            memory._path = before  # type: ignore[assignment]


EXAMPLES = int(os.environ.get("PUZINT_FUZZ_EXAMPLES", "30"))
QUICK = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(
    max_examples=int(os.environ.get("PUZINT_FUZZ_EXAMPLES", "2000")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PUZZLES = st.one_of(counter_puzzles(), cell_puzzles())


@QUICK
@given(PUZZLES)
def test_every_engine_answers_fillings_at_the_edges_as_a_plain_walk_does(puzzle: Puzzle) -> None:
    check(puzzle)


@pytest.mark.fuzz
@LONG
@given(PUZZLES)
def test_a_long_hunt_at_the_edges(puzzle: Puzzle) -> None:
    check(puzzle)
