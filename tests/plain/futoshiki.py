"""Futoshiki: fill an n x n grid with 1..n, each once in every row and column, so that the
given numbers stand and every inequality sign between two neighbouring cells holds.

Rules implemented:
- givens: {(row, col): number}, rows and columns counted from 1;
- signs: [((r1, c1), "<" or ">", (r2, c2))]: the number at the first cell is less (greater)
  than the number at the second;
- solutions(n, givens, signs) lists every filling, each as a tuple of rows.
Search: cell by cell in reading order, a number tried where its row and column do not hold
it yet, the given where there is one, each sign checked once both its cells are filled.
"""

from __future__ import annotations

Cell = tuple[int, int]


def solutions(
    n: int, givens: dict[Cell, int], signs: list[tuple[Cell, str, Cell]]
) -> list[tuple[tuple[int, ...], ...]]:
    grid = [[0] * n for _ in range(n)]
    order = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    found: list[tuple[tuple[int, ...], ...]] = []

    def holds(cell: Cell) -> bool:
        for a, sign, b in signs:
            if cell not in (a, b):
                continue
            x, y = grid[a[0] - 1][a[1] - 1], grid[b[0] - 1][b[1] - 1]
            if x and y and not (x < y if sign == "<" else x > y):
                return False
        return True

    def place(i: int) -> None:
        if i == len(order):
            found.append(tuple(tuple(row) for row in grid))
            return
        r, c = order[i]
        choices = [givens[(r, c)]] if (r, c) in givens else range(1, n + 1)
        for v in choices:
            if v in grid[r - 1] or any(grid[k][c - 1] == v for k in range(n)):
                continue
            grid[r - 1][c - 1] = v
            if holds((r, c)):
                place(i + 1)
            grid[r - 1][c - 1] = 0

    place(0)
    return found
