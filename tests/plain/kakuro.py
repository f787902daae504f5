"""Kakuro as a CP-SAT model written directly with OR-tools' API (a model of its own, not
puzint's), read from the puzzle's grid as a CSV file writes it.

Rules implemented:
- The grid: one line a row, squares separated by commas; an empty square is white (a digit
  1..9 to find); a square with a backslash is black, the number before it (if any) the sum of
  the run of white squares below it, the number after it the sum of the run to its right.
- A run is a maximal sequence of white squares in a row or a column; its digits are all
  different and add up to the clue of the black square before it.
- solutions(csv, limit) lists the grids (each white square's digit, read row by row), at most
  `limit` of them.
"""

from __future__ import annotations

from typing import Any


def squares(csv: str) -> list[list[str]]:
    return [line.split(",") for line in csv.strip("\n").split("\n")]


def runs(csv: str) -> list[tuple[int, list[tuple[int, int]]]]:
    """Each run: its clue and its squares (row, column from 0)."""
    grid = squares(csv)
    found = []
    for r, row in enumerate(grid):
        for c, square in enumerate(row):
            if "\\" not in square:
                continue
            down, across = square.split("\\")
            for clue, step in ((across, (0, 1)), (down, (1, 0))):
                cells = []
                rr, cc = r + step[0], c + step[1]
                while rr < len(grid) and cc < len(grid[rr]) and "\\" not in grid[rr][cc]:
                    cells.append((rr, cc))
                    rr, cc = rr + step[0], cc + step[1]
                if cells:
                    found.append((int(clue), cells))
    return found


def solutions(csv: str, limit: int = 2) -> list[str]:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    grid = squares(csv)
    digit: dict[tuple[int, int], Any] = {
        (r, c): model.new_int_var(1, 9, f"r{r}c{c}")
        for r, row in enumerate(grid)
        for c, square in enumerate(row)
        if "\\" not in square
    }
    for clue, cells in runs(csv):
        model.add_all_different([digit[cell] for cell in cells])
        model.add(sum(digit[cell] for cell in cells) == clue)
    order = sorted(digit)
    found: list[str] = []

    class Keep(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def on_solution_callback(self) -> None:
            found.append("".join(str(self.value(digit[cell])) for cell in order))
            if len(found) >= limit:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.solve(model, Keep())
    return found


# "Sumas cruzadas" no. 93, as the kakuro-kuso project gives it (samples/SumasCruzadas_93.csv).
SUMAS_93 = r"""
\,\,28\,6\,36\,\,\,7\,13\,15\,20\,30\,\,\
\,24\6,,,,20\,\16,,,,,,37\,\
\35,,,,,,10\36,,,,,,,11\
\17,,,\11,,,,,15\33,,,,,
\16,,,7\23,,,,31\6,,,30\19,,,
\,\10,,,,,10\28,,,,,10\12,,
\,10\,35\10,,,30\6,,,,10\10,,,,
\16,,,,3\24,,,,6\30,,,,,\
\12,,,6\10,,,\10,,,,,23\,35\,\
\17,,,,,,24\10,,,10\24,,,,11\
\10,,,,25\15,,,18\4,,,10\16,,,
\,\9,,,,8\10,,,\32,,,,,
\,\,37\,9\29,,,,,10\5,,,23\9,,
\,11\15,,,,,12\7,,,,24\13,,,
\29,,,,,32\24,,,,30\10,,,33\,\
\10,,,11\14,,,,,10\29,,,,,6\
\6,,,,24\10,,,23\24,,,,\10,,
\28,,,,,,10\21,,,,,16\8,,
\,\23,,,,,,,\20,,,,,
\,\,\35,,,,,,\,\23,,,,\
"""

if __name__ == "__main__":
    import time

    began = time.perf_counter()
    found = solutions(SUMAS_93)
    print(f"{len(found)} solution(s) in {time.perf_counter() - began:.2f} s: {found}")
