"""CP-SAT models written directly for issue 42's other catalogue fillings (benchmarks/report_logic.py
--lists): the Hidato, the Numbrix, the Futoshiki, the zebra puzzle and the magic hexagon, each
counting every solution on one worker (what `puzint run` asks of these specs). The hand-written
Python solvers they are compared with are the plain programs of tests/plain (number_paths,
futoshiki, zebra, magic_hexagon), which check the specs' expectations. Neither imports puzint.

- Hidato and Numbrix: a path through every cell as CP-SAT's circuit (a boolean per step between
  two neighbouring cells, and one from and to a node outside the board for the path's ends),
  each cell's number an integer that a step adds 1 to, the givens fixed, `AddAllDifferent` of
  the numbers.
- Futoshiki: integers 1..5, `AddAllDifferent` per row and column, the givens, a `<` per sign.
- Zebra: each name's house an integer 1..5, `AddAllDifferent` per group, each clue an
  equation, or "next to" as |a - b| == 1 (`AddAbsEquality`).
- Magic hexagon: integers 1..19, `AddAllDifferent`, a sum of 38 per line.

Each returns the number of solutions with the seconds spent building the model and solving it.
"""

from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model
from tests.plain import magic_hexagon, number_paths, zebra


def _count(model: cp_model.CpModel) -> tuple[int, float]:
    """Every solution, on one worker, and the seconds the solve took."""
    found = [0]

    class Count(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def on_solution_callback(self) -> None:
            found[0] += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    started = time.perf_counter()
    solver.solve(model, Count())
    return found[0], time.perf_counter() - started


def number_path_count(board: list[str], diagonal: bool) -> tuple[int, float, float]:
    """Hidato (`diagonal`: steps across corners too) or Numbrix, as a circuit."""
    started = time.perf_counter()
    cells, given = number_paths._parse(board)
    n = len(cells)
    index = {cell: i for i, cell in enumerate(cells)}
    model = cp_model.CpModel()
    number = [model.new_int_var(1, n, f"n{i}") for i in range(n)]
    for value, cell in given.items():
        model.add(number[index[cell]] == value)
    model.add_all_different(number)
    arcs: list[tuple[int, int, Any]] = []
    for i, (r, c) in enumerate(cells):
        first, last = model.new_bool_var(f"first{i}"), model.new_bool_var(f"last{i}")
        arcs += [(n, i, first), (i, n, last)]
        model.add(number[i] == 1).only_enforce_if(first)
        model.add(number[i] == n).only_enforce_if(last)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                j = index.get((r + dr, c + dc))
                if j is None or j == i or (not diagonal and dr and dc):
                    continue
                step = model.new_bool_var(f"s{i}_{j}")
                arcs.append((i, j, step))
                model.add(number[j] == number[i] + 1).only_enforce_if(step)
    model.add_circuit(arcs)
    built = time.perf_counter() - started
    count, solved = _count(model)
    return count, built, solved


FUTOSHIKI_GIVENS = {(3, 4): 5, (5, 2): 4}
FUTOSHIKI_SIGNS = [
    ((1, 2), ">", (1, 3)), ((2, 2), ">", (2, 3)), ((3, 1), "<", (3, 2)), ((4, 1), ">", (4, 2)),
    ((4, 3), "<", (4, 4)), ((1, 2), ">", (2, 2)), ((2, 1), ">", (3, 1)), ((3, 1), "<", (4, 1)),
    ((4, 1), ">", (5, 1)), ((3, 3), ">", (4, 3)), ((3, 5), "<", (4, 5)), ((4, 5), "<", (5, 5)),
]  # fmt: skip  # the catalogue's (specs/futoshiki.puz), as tests/plain/test_logic_plain.py writes them


def futoshiki_count(n: int = 5) -> tuple[int, float, float]:
    started = time.perf_counter()
    model = cp_model.CpModel()
    x = {(r, c): model.new_int_var(1, n, f"r{r}c{c}") for r in range(1, n + 1) for c in range(1, n + 1)}
    for k in range(1, n + 1):
        model.add_all_different([x[k, c] for c in range(1, n + 1)])
        model.add_all_different([x[r, k] for r in range(1, n + 1)])
    for cell, value in FUTOSHIKI_GIVENS.items():
        model.add(x[cell] == value)
    for a, sign, b in FUTOSHIKI_SIGNS:
        model.add(x[a] < x[b] if sign == "<" else x[a] > x[b])
    built = time.perf_counter() - started
    count, solved = _count(model)
    return count, built, solved


def zebra_count() -> tuple[int, float, float]:
    started = time.perf_counter()
    model = cp_model.CpModel()
    h = {name: model.new_int_var(1, 5, name) for group in zebra.GROUPS for name in group}
    for group in zebra.GROUPS:
        model.add_all_different([h[name] for name in group])

    def next_to(a: str, b: str) -> None:
        apart = model.new_int_var(0, 4, f"{a}_{b}")
        model.add_abs_equality(apart, h[a] - h[b])
        model.add(apart == 1)

    for a, b in [
        ("english", "red"), ("spaniard", "dog"), ("coffee", "green"), ("ukrainian", "tea"),
        ("old_gold", "snails"), ("kools", "yellow"), ("lucky_strike", "orange_juice"), ("japanese", "parliament"),
    ]:  # fmt: skip
        model.add(h[a] == h[b])
    model.add(h["green"] == h["ivory"] + 1)
    model.add(h["milk"] == 3)
    model.add(h["norwegian"] == 1)
    for a, b in [("chesterfield", "fox"), ("kools", "horse"), ("norwegian", "blue")]:
        next_to(a, b)
    built = time.perf_counter() - started
    count, solved = _count(model)
    return count, built, solved


def magic_hexagon_count() -> tuple[int, float, float]:
    started = time.perf_counter()
    model = cp_model.CpModel()
    x = {cell: model.new_int_var(1, 19, str(cell)) for cell in magic_hexagon.CELLS}
    model.add_all_different(list(x.values()))
    for line in magic_hexagon.LINES:
        model.add(sum(x[cell] for cell in line) == 38)
    built = time.perf_counter() - started
    count, solved = _count(model)
    return count, built, solved
