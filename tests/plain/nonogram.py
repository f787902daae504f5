"""Nonograms solved by plain backtracking, row by row.

Rules implemented:
- A grid of rows x columns cells, each black or empty.
- Each row's clue lists the lengths of its runs of consecutive black cells, left to right;
  each column's, top to bottom. An empty clue: the line has no black cell.
- solutions(rows, columns, limit) lists the grids (each a string of '#' and '.' read row by
  row) that keep every clue, at most `limit` of them; every way of laying each row's runs is
  made first, and a row is kept only where every column can still become its clue.
"""

from __future__ import annotations


def placements(clue: list[int], width: int) -> list[tuple[bool, ...]]:
    """Every line of `width` cells whose runs are `clue`."""
    if not clue:
        return [(False,) * width]
    first, rest = clue[0], clue[1:]
    room = sum(rest) + len(rest)
    found = []
    for start in range(width - room - first + 1):
        head = (False,) * start + (True,) * first
        if rest:
            for tail in placements(rest, width - len(head) - 1):
                found.append((*head, False, *tail))
        else:
            found.append(head + (False,) * (width - len(head)))
    return found


def runs(cells: list[bool]) -> list[int]:
    found, length = [], 0
    for black in cells:
        if black:
            length += 1
        elif length:
            found.append(length)
            length = 0
    return found + ([length] if length else [])


def _column_may_become(prefix: list[bool], clue: list[int], height: int) -> bool:
    """Whether the first cells of a column can still be completed to its clue."""
    done = runs(prefix)
    open_run = bool(prefix) and prefix[-1]
    closed = done[:-1] if open_run else done
    if closed != clue[: len(closed)]:
        return False
    if open_run:
        k = len(done) - 1
        if k >= len(clue) or done[-1] > clue[k]:
            return False
        left = clue[k + 1 :]
        need = (clue[k] - done[-1]) + sum(left) + len(left)
    else:
        left = clue[len(closed) :]
        need = sum(left) + max(0, len(left) - 1)
    return need <= height - len(prefix)


def solutions(rows: list[list[int]], columns: list[list[int]], limit: int = 2) -> list[str]:
    height, width = len(rows), len(columns)
    options = [placements(clue, width) for clue in rows]
    found: list[str] = []
    grid: list[tuple[bool, ...]] = []

    def extend() -> None:
        if len(found) >= limit:
            return
        if len(grid) == height:
            if all(runs([row[c] for row in grid]) == columns[c] for c in range(width)):
                found.append("".join("#" if cell else "." for row in grid for cell in row))
            return
        for row in options[len(grid)]:
            grid.append(row)
            if all(_column_may_become([r[c] for r in grid], columns[c], height) for c in range(width)):
                extend()
            grid.pop()

    extend()
    return found


# A 15 x 15 nonogram of the ECLiPSe examples (nono.ecl, "n6").
N6_ROWS = [[5], [2, 2], [1, 1], [1, 1], [4, 4], [2, 2, 1, 2], [1, 3, 1], [1, 1, 1, 1], [2, 7, 2], [4, 1, 5]]
N6_ROWS += [[2, 1, 1], [1, 1, 2], [1, 1, 1], [2, 5, 2], [3, 4]]
N6_COLUMNS = [[4], [2, 2], [1, 5], [1, 2, 2], [5, 2, 1], [2, 1, 1, 2], [1, 3, 1], [1, 1, 6], [1, 3, 1]]
N6_COLUMNS += [[2, 1, 2, 2], [4, 2, 1], [1, 1, 1], [1, 3, 2], [2, 2, 3], [4]]

if __name__ == "__main__":
    import time

    began = time.perf_counter()
    found = solutions(N6_ROWS, N6_COLUMNS)
    print(f"{len(found)} solution(s) in {time.perf_counter() - began:.2f} s")
    for grid in found:
        print("\n".join(grid[i : i + 15] for i in range(0, 225, 15)), "\n")
