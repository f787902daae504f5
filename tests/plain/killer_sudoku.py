"""Killer Sudoku as a CP-SAT model written directly with OR-tools' API (a model of its own,
not puzint's): every solution counted.

Rules implemented:
- A 9 x 9 grid of the digits 1..9, each once in every row, column and 3 x 3 box.
- Cages: a picture (a letter per cell, one string per row) and each letter's sum; a cage's
  digits are all different and add up to its sum.
- solutions(picture, sums, limit) lists the grids (81 digits read row by row), at most
  `limit` of them.
"""

from __future__ import annotations

from typing import Any


def solutions(picture: list[str], sums: dict[str, int], limit: int = 2) -> list[str]:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    cell = [[model.new_int_var(1, 9, f"r{r}c{c}") for c in range(9)] for r in range(9)]
    for i in range(9):
        model.add_all_different(cell[i])
        model.add_all_different([cell[r][i] for r in range(9)])
        top, left = 3 * (i // 3), 3 * (i % 3)
        model.add_all_different([cell[top + r][left + c] for r in range(3) for c in range(3)])
    cages: dict[str, list[Any]] = {}
    for r, row in enumerate(picture):
        for c, letter in enumerate(row):
            cages.setdefault(letter, []).append(cell[r][c])
    for letter, members in cages.items():
        model.add_all_different(members)
        model.add(sum(members) == sums[letter])

    found: list[str] = []

    class Keep(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def on_solution_callback(self) -> None:
            found.append("".join(str(self.value(v)) for row in cell for v in row))
            if len(found) >= limit:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.solve(model, Keep())
    return found


# The Killer Sudoku of Wikipedia's article (public domain, drawn by Toon Spin).
WIKIPEDIA = ["aabbbcdef", "gghhccdef", "ggiicjkkf", "lmminjkof", "lppqnjoor", "sptqnuvvr", "sttqwuuxx"]
WIKIPEDIA += ["syzwwAAxx", "syzwBBBCC"]
SUMS = [3, 15, 22, 4, 16, 15, 25, 17, 9, 8, 20, 6, 14, 17, 17, 13, 20, 12, 27, 6, 20, 6, 10, 14, 8, 16, 15, 13, 17]
WIKIPEDIA_SUMS = dict(zip("abcdefghijklmnopqrstuvwxyzABC", SUMS, strict=True))

if __name__ == "__main__":
    import time

    began = time.perf_counter()
    found = solutions(WIKIPEDIA, WIKIPEDIA_SUMS)
    print(f"{len(found)} solution(s) in {time.perf_counter() - began:.2f} s: {found}")
