"""`maximize EXPR` / `minimize EXPR` on every engine that answers a filling: the best value and
every solution of it, the same on CP-SAT (its own objective), the Python fill search and the
kernel's (every solution walked, the best kept), and the same as a plain walk of every
filling written here, or the plain cryptarithm solver's (tests/plain/cryptarithm.py)."""

from __future__ import annotations

import importlib.util
from itertools import permutations

import pytest
from puzint import kernel
from puzint.compiler import CompiledPuzzle
from puzint.engines import RunOptions
from puzint.errors import SpecError
from puzint.runner import search
from puzint.search import Limits
from puzint.search.limits import LimitReached
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS, compiled_from
from tests.plain import cryptarithm

SOLVER = pytest.mark.skipif(importlib.util.find_spec("ortools") is None, reason="OR-tools is not installed")
KERNEL = pytest.mark.skipif(not kernel.installed() or kernel.jit_disabled(), reason="the kernel cannot run here")
ENGINE_NAMES = ["python", pytest.param("cpsat", marks=SOLVER), pytest.param("compiled", marks=KERNEL)]

SEND_MOST = (SPECS / "send_most_money.puz").read_text(encoding="utf-8")


def best(compiled: CompiledPuzzle, engine: str) -> tuple[int | None, set[str], int]:
    """The best value, every solution listed (as text), and how many there are."""
    report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    assert report.engine == engine and report.status in ("solved", "no-solution")
    return report.optimum, {_text(compiled, path[-1][1]) for path in report.solutions}, report.count


def _text(compiled: CompiledPuzzle, state: bytes) -> str:
    decoded = compiled.layout.decode(state)
    if compiled.puzzle.board is not None:
        return "".join(compiled.puzzle.symbol(code) for code in decoded.cells)
    return " ".join(
        f"{c.name}={v}" for c, v in zip(compiled.puzzle.counters, decoded.counters, strict=True) if c.role == "number"
    )


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("largest", [True, False])
def test_send_most_money_has_the_plain_solver_s_best(engine: str, largest: bool) -> None:
    top, kept = cryptarithm.best(["SEND", "MOST"], "MONEY", "MONEY", largest=largest)
    text = SEND_MOST if largest else SEND_MOST.replace("maximize", "minimize")
    optimum, found, count = best(compiled_from(text), engine)
    assert optimum == top == (10876 if largest else 10437)
    assert found == {" ".join(f"{x}={s[x]}" for x in "SENDMOTY") for s in kept}
    assert count == len(kept) == 2


# ---- a small grid, walked plainly: 1..9 once each, every row and column adding up to 15

GRID = """
puzzle "rows and columns of 15"
board grid 3 x 3
pieces 1..9 "digits"
fill cells with 1..9
rule:
    all different(cells)
    every l in rows, columns: sum(c.value for c in l) == 15
"""


def plain_fillings() -> list[tuple[int, ...]]:
    """Every filling, row by row, by trying every order of 1..9."""
    found = []
    for cells in permutations(range(1, 10)):
        rows = [cells[3 * r : 3 * r + 3] for r in range(3)]
        if all(sum(row) == 15 for row in rows) and all(sum(cells[c::3]) == 15 for c in range(3)):
            found.append(cells)
    return found


FILLINGS = plain_fillings()

OBJECTIVES = {
    # the objective as written, and the same number of a plain filling (row by row)
    "maximize r2c2.value + count(c in cells if c.value > 5 and c.row == 1)": (
        True,
        lambda f: f[4] + sum(1 for v in f[:3] if v > 5),
    ),
    "minimize 100*r1c1.value + 10*r1c2.value + r1c3.value": (False, lambda f: 100 * f[0] + 10 * f[1] + f[2]),
    "maximize r1c1.value * r3c3.value - r2c1.value": (True, lambda f: f[0] * f[8] - f[3]),
}


def plain_best(line: str) -> tuple[int, set[str]]:
    maximize, value = OBJECTIVES[line]
    top = (max if maximize else min)(value(f) for f in FILLINGS)
    return top, {"".join(map(str, f)) for f in FILLINGS if value(f) == top}


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("line", list(OBJECTIVES))
def test_every_engine_finds_the_plain_walk_s_best_fillings(engine: str, line: str) -> None:
    top, kept = plain_best(line)
    optimum, found, count = best(compiled_from(GRID + line + "\n"), engine)
    assert len(FILLINGS) == 72
    assert (optimum, found, count) == (top, kept, len(kept))


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_count_gives_the_best_value_and_the_number_of_its_fillings(engine: str) -> None:
    line = "maximize r2c2.value + count(c in cells if c.value > 5 and c.row == 1)"
    top, kept = plain_best(line)
    report = enumerate_solutions(compiled_from(GRID + line + "\n"), Limits(), keep=False, options=RunOptions(engine))
    assert (report.optimum, report.count, report.objective) == (top, len(kept), f"largest {line[9:]} = {top}")
    assert len(kept) == 4 and top == 11


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_limit_stops_the_listing_of_the_best_fillings(engine: str) -> None:
    line = "maximize r2c2.value + count(c in cells if c.value > 5 and c.row == 1)"
    top, kept = plain_best(line)
    compiled = compiled_from(GRID + line + "\n")
    report = enumerate_solutions(compiled, Limits(), limit=1, options=RunOptions(engine))
    assert report.count == 1 and report.stopped_at_limit and report.optimum == top
    assert _text(compiled, report.solutions[0][-1][1]) in kept


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize("line", list(OBJECTIVES))
def test_search_any_gives_a_best_filling_and_whether_it_is_the_only_one(engine: str, line: str) -> None:
    top, kept = plain_best(line)
    compiled = compiled_from(GRID + line + "\nsearch any\n")
    result = search(compiled, engine=engine)
    assert result.status == "solved" and _text(compiled, result.path[-1][1]) in kept
    assert result.unique is (len(kept) == 1)
    assert compiled.objective_value is not None and compiled.objective_value(result.path[-1][1]) == top


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_no_filling_keeps_the_rules_no_solution(engine: str) -> None:
    text = GRID.replace("== 15", "== 16") + "maximize r1c1.value\n"
    assert best(compiled_from(text), engine) == (None, set(), 0)
    assert search(compiled_from(text + "search any\n"), engine=engine).status == "no-solution"


def mirrored(cells: str) -> str:
    return "".join(cells[3 * r : 3 * r + 3][::-1] for r in range(3))


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_the_best_fillings_are_counted_up_to_a_symmetry_that_keeps_the_objective(engine: str) -> None:
    """The centre is its own mirror image: the best fillings come in mirrored pairs."""
    kept = {"".join(map(str, f)) for f in FILLINGS if f[4] == max(g[4] for g in FILLINGS)}
    report = enumerate_solutions(
        compiled_from(GRID + "maximize r2c2.value\nsymmetry mirror\n"), Limits(), options=RunOptions(engine)
    )
    assert report.optimum == 9 and report.in_all == len(kept) == 8
    assert report.count == len({min(k, mirrored(k)) for k in kept}) == 4


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_symmetry_that_changes_the_objective_is_refused(engine: str) -> None:
    compiled = compiled_from(GRID + "maximize r1c1.value\nsymmetry mirror\n")
    with pytest.raises(SpecError) as caught:
        enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    assert caught.value.diagnostics[0].message == (
        "'mirror' is not a symmetry of this puzzle's best solutions: it maps a solution with the largest "
        "r1c1.value to one without"
    )


HARD = """
puzzle "a Latin square of 6, its weighted sum the largest"
board grid 6 x 6
pieces 1..6 "digits"
fill cells with 1..6
rule: every l in rows, columns: all different(l)
maximize sum(c.value * c.row * c.col for c in cells)
"""


@SOLVER
def test_cp_sat_stopped_before_it_proves_the_best_value_says_so_and_gives_no_solution(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A limit met while CP-SAT looks for the best value (this one takes it far longer than the
    first look at the limits): no value, no solution, and the reason."""
    limits = Limits()

    def stop(*args: object, **kwargs: object) -> int:
        raise LimitReached("stopped")

    monkeypatch.setattr(limits, "check", stop)
    report = enumerate_solutions(compiled_from(HARD), limits, options=RunOptions("cpsat"))
    assert (report.status, report.count, report.optimum) == ("limit", 0, None)
    assert report.limit_reason == "stopped before the best value was proven"
