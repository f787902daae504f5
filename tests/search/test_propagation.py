"""The propagating fill search (search/propagation.py) against the fill search of forward
checking (search/fill.py), which it replaces where the kernel's model says the rules, and
against the independent plain solvers of tests/plain/: the same solutions, laid out as the
same paths; its count without the solutions; its stops at the run's limits."""

from __future__ import annotations

import itertools
import math
import random
import traceback
from dataclasses import dataclass, field

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.compiler.families import FillFamily
from puzint.engines.python import fill_model
from puzint.runner import load
from puzint.search import Limits, fill, propagation
from puzint.search.limits import LimitReached

from tests.conftest import SPECS
from tests.plain import cryptarithm, latin_square, magic_square, queens, regions, sudoku

Path = list[tuple[int, bytes]]


def _problem(compiled: CompiledPuzzle) -> fill.FillProblem:
    family = compiled.filling
    assert isinstance(family, FillFamily)
    return family.problem(compiled.start)


def propagated(compiled: CompiledPuzzle, limits: Limits | None = None) -> list[Path]:
    model = fill_model(compiled)
    assert model is not None
    return list(propagation.fillings(model, _problem(compiled).path, limits or Limits(), [0]))


def forward_checked(compiled: CompiledPuzzle) -> list[Path]:
    return list(fill.fillings(_problem(compiled), Limits(), [0]))


def text(compiled: CompiledPuzzle, path: Path) -> str:
    """A solution's board read row by row (its counters, name=value, where it has no board)."""
    decoded = compiled.layout.decode(path[-1][1])
    if compiled.puzzle.board is not None:
        return "".join("." if code == 0 else compiled.puzzle.symbol(code) for code in decoded.cells)
    return " ".join(
        f"{c.name}={v}" for c, v in zip(compiled.puzzle.counters, decoded.counters, strict=True) if c.role == "number"
    )


CATALOGUE = [
    ("queens", {"n": "1"}),
    ("queens", {"n": "3"}),
    ("queens", {"n": "4"}),
    ("queens", {"n": "6"}),
    ("sudoku", {}),
    ("shidoku", {}),
    ("latin_square", {"n": "3"}),
    ("latin_square", {"n": "4"}),
    ("magic_square", {"n": "3"}),
    ("killer_shidoku", {}),
]


@pytest.mark.parametrize(("name", "params"), CATALOGUE)
def test_the_same_paths_as_the_fill_search_of_forward_checking(name: str, params: dict[str, str]) -> None:
    """Each solution laid out as the state-space walk's path, exactly as before: a renderer,
    a check, a race between engines reads them alike."""
    compiled = load(SPECS / f"{name}.puz", params)
    found = propagated(compiled)
    assert len(found) == len({tuple(path) for path in found})  # each solution once
    assert {tuple(path) for path in found} == {tuple(path) for path in forward_checked(compiled)}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 8])
def test_queens_are_the_plain_solver_s(n: int) -> None:
    """Each solution as the cells of its queens."""
    compiled = load(SPECS / "queens.puz", {"n": str(n)})
    found = {frozenset(i for i, code in enumerate(path[-1][1][: n * n]) if code) for path in propagated(compiled)}
    plain = {frozenset(r * n + columns[r] for r in range(n)) for columns in queens.solutions(n)}
    assert found == plain and len(plain) == queens.count(n)


def test_the_sudoku_is_the_plain_solver_s() -> None:
    compiled = load(SPECS / "sudoku.puz")
    given = "".join(str(code) if code else "0" for code in compiled.start[:81])
    assert [text(compiled, path) for path in propagated(compiled)] == sudoku.solutions(given)


def test_the_shidokus_and_latin_squares_are_the_plain_solvers() -> None:
    compiled = load(SPECS / "shidoku.puz")
    assert {text(compiled, path) for path in propagated(compiled)} == set(
        sudoku.solutions("0" * 16, size=4, box=(2, 2))
    )
    for n in (3, 4):
        compiled = load(SPECS / "latin_square.puz", {"n": str(n)})
        plain = {"".join(str(x) for row in square for x in row) for square in latin_square.squares(n)}
        assert {text(compiled, path) for path in propagated(compiled)} == plain
        assert len(plain) == latin_square.count(n)


def test_the_magic_squares_are_the_plain_solver_s() -> None:
    compiled = load(SPECS / "magic_square.puz", {"n": "3"})
    plain = {"".join(str(x) for x in square) for square in magic_square.squares()}
    assert {text(compiled, path) for path in propagated(compiled)} == plain and len(plain) == 8


def test_the_killer_shidoku_is_the_plain_solver_s() -> None:
    compiled = load(SPECS / "killer_shidoku.puz")
    cages = ["aabb", "cdde", "cfge", "hfgg"]
    sums = {"a": 3, "b": 7, "c": 5, "d": 5, "e": 5, "f": 4, "g": 7, "h": 4}
    plain = set(regions.solutions(4, ["aabb", "aabb", "ccdd", "ccdd"])) & set(regions.solutions(4, cages, sums))
    assert {text(compiled, path) for path in propagated(compiled)} == plain


def test_send_more_money_is_the_plain_solver_s() -> None:
    """(The fill search of forward checking takes seconds over its 10^8 fillings: its sum is
    one linear constraint, which it checks only once seven letters are decided.)"""
    compiled = load(SPECS / "send_more_money.puz")
    (plain,) = cryptarithm.solutions(["SEND", "MORE"], "MONEY")
    assert [text(compiled, path) for path in propagated(compiled)] == [
        " ".join(f"{letter}={plain[letter]}" for letter in "SENDMORY")
    ]


@pytest.mark.parametrize(("name", "params"), [*CATALOGUE, ("queens", {"n": "8"}), ("send_more_money", {})])
def test_a_count_makes_no_solution_and_walks_the_same_decisions(name: str, params: dict[str, str]) -> None:
    compiled = load(SPECS / f"{name}.puz", params)
    model = fill_model(compiled)
    assert model is not None
    visited = [0]
    listed = list(propagation.fillings(model, _problem(compiled).path, Limits(), visited))
    counter = [0, 0]
    propagation.count_fillings(model, Limits(), counter)
    assert counter == [visited[0], len(listed)]


def test_queens_ten_are_counted_as_the_plain_solver_counts_them() -> None:
    compiled = load(SPECS / "queens.puz", {"n": "10"})
    model = fill_model(compiled)
    assert model is not None
    counter = [0, 0]
    propagation.count_fillings(model, Limits(), counter)
    assert counter[1] == queens.count(10) == 724


def test_the_state_limit_counts_decisions_and_stops_the_count() -> None:
    model = fill_model(load(SPECS / "queens.puz", {"n": "10"}))
    assert model is not None
    counter = [0, 0]
    with pytest.raises(LimitReached, match="state limit of 500 reached"):
        propagation.count_fillings(model, Limits(max_states=500), counter)
    assert counter[0] == 500 and counter[1] < 724


# ---- a model given as plain data (the search sees no compiler and no kernel)


@dataclass
class Sum:
    terms: dict[int, list[int]]
    lo: int
    hi: int


@dataclass
class Keys:
    keys: dict[int, list[int]]
    taken: int


@dataclass
class Allowed:
    things: tuple[int, ...]
    allowed: list[int]


@dataclass
class Model:
    values: list[tuple[int, ...]]
    linear: list[Sum] = field(default_factory=list)
    distinct: list[Keys] = field(default_factory=list)
    tables: list[Allowed] = field(default_factory=list)


def test_a_long_propagation_looks_at_the_limits() -> None:
    """One propagation of many revisions (here the first, before any decision: thousands of
    constraints, the last of which fails) stops at a limit met on the way: the limits are
    looked at inside it, not only between decisions."""
    model = Model([(0, 1)], [Sum({0: [0, 1]}, 0, 1) for _ in range(3 * propagation.REVISIONS)])
    model.linear.append(Sum({0: [0, 1]}, 5, 9))
    assert list(propagation.Propagation(model).solutions(Limits(), [0])) == []
    where: list[str] = []

    def stop() -> str:
        where.extend(frame.name for frame in traceback.extract_stack())
        return "stopped on the way"

    with pytest.raises(LimitReached, match="stopped on the way"):
        list(propagation.Propagation(model).solutions(Limits(until=stop), [0]))
    assert "propagate" in where


def test_a_model_of_plain_data_with_every_kind_of_constraint() -> None:
    """x + y == 4 (a sum), x != y (all different by keys), (x, z) from a table, and a count of
    those at 0: every assignment of three things of four values each checked by brute force."""

    values = [(0, 1, 2, 3)] * 3
    table = [int((x + 2 * z) % 3 == 0) for z in range(4) for x in range(4)]  # the first thing (x) fastest
    model = Model(
        list(values),
        [Sum({0: [0, 1, 2, 3], 1: [0, 1, 2, 3]}, 4, 4), Sum({0: [1, 0, 0, 0], 2: [1, 0, 0, 0]}, 0, 1)],
        [Keys({0: [0, 1, 2, 3], 1: [0, 1, 2, 3]}, 0)],
        [Allowed((0, 2), table)],
    )
    expected = sorted(
        [x, y, z]
        for x in range(4)
        for y in range(4)
        for z in range(4)
        if x + y == 4 and x != y and (x + 2 * z) % 3 == 0 and (x == 0) + (z == 0) <= 1
    )
    found = sorted(propagation.Propagation(model).solutions(Limits(), [0]))
    assert found == expected and found


def _random_model(rng: random.Random) -> Model:
    """A few things of a few values, and constraints of every kind: sums of any coefficients,
    counts and clauses, `all different`s of keys shared, missing or given, tables."""
    sizes = [rng.randint(1, 5) for _ in range(rng.randint(1, 5))]
    model = Model([tuple(range(size)) for size in sizes])
    things = range(len(sizes))
    for _ in range(rng.randint(0, 3)):
        chosen = rng.sample(things, rng.randint(1, len(sizes)))
        if rng.random() < 0.5:  # a count (a clause where lo is 1 and hi is past every count)
            terms = {k: [rng.randint(0, 1) for _ in range(sizes[k])] for k in chosen}
            lo, hi = sorted((rng.randint(-1, len(chosen)), rng.randint(0, len(chosen) + 1)))
            model.linear.append(Sum(terms, lo, 10**6 if rng.random() < 0.3 else hi))
        else:
            terms = {k: [rng.randint(-4, 4) for _ in range(sizes[k])] for k in chosen}
            lo = rng.randint(-6, 6)
            model.linear.append(Sum(terms, lo, lo + rng.randint(0, 6)))
    for _ in range(rng.randint(0, 2)):
        chosen = rng.sample(things, rng.randint(1, len(sizes)))
        keyed = rng.random() < 0.5  # each value's key its index shifted, or keys at random
        shift = rng.randint(0, 2)
        keys = {k: [i + shift if keyed else rng.randint(-1, 4) for i in range(sizes[k])] for k in chosen}
        model.distinct.append(Keys(keys, rng.choice([0, 0, 1 << rng.randint(0, 5)])))
    for _ in range(rng.randint(0, 2)):
        chosen = tuple(rng.sample(things, rng.randint(0, min(3, len(sizes)))))
        total = math.prod(sizes[k] for k in chosen)
        model.tables.append(Allowed(chosen, [int(rng.random() < 0.6) for _ in range(total)]))
    return model


def _keeps(model: Model, chosen: tuple[int, ...]) -> bool:
    for linear in model.linear:
        if not linear.lo <= sum(row[chosen[k]] for k, row in linear.terms.items()) <= linear.hi:
            return False
    for distinct in model.distinct:
        keys = [distinct.keys[k][chosen[k]] for k in distinct.keys if distinct.keys[k][chosen[k]] >= 0]
        if len(set(keys)) < len(keys) or any(distinct.taken >> key & 1 for key in keys):
            return False
    for table in model.tables:
        index, place = 0, 1
        for k in table.things:
            index += chosen[k] * place
            place *= len(model.values[k])
        if not table.allowed[index]:
            return False
    return True


@pytest.mark.parametrize("seed", range(8))
def test_random_models_against_every_assignment(seed: int) -> None:
    """Every assignment of the things' values checked against every constraint, and nothing
    propagated: the solutions of hundreds of small random models, each once."""
    rng = random.Random(seed)
    for _ in range(100):
        model = _random_model(rng)
        expected = [list(c) for c in itertools.product(*(range(len(v)) for v in model.values)) if _keeps(model, c)]
        found = list(propagation.Propagation(model).solutions(Limits(), [0]))
        assert sorted(found) == expected, model
        counted = [0]
        assert list(propagation.Propagation(model).solutions(Limits(), [0], counted)) == []
        assert counted[0] == len(expected)
