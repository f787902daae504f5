"""Hidato and Numbrix: numbers 1..n on the n cells of a board, each number's cell next to the
next number's (Hidato: across a side or a corner; Numbrix: across a side only), some given.

Rules implemented:
- A board is a list of rows of text items: "." a square with no cell, "_" an open cell, a
  number a given cell.
- A solution writes 1..n (n = the number of cells) once each, keeps the givens, and for every
  k < n the cell of k and the cell of k + 1 are neighbours (8 around a cell for Hidato, the
  4 across its sides for Numbrix).
- solutions(board, diagonal, limit): the solutions as lists of rows of numbers (None where no
  cell), found by walking from the cell of 1 (a given one, or every open cell) to each next
  number: the given cell where the next number is given, else an unused open neighbour; a
  walk is cut when a given number further on can no longer be reached in time (its cell
  farther, in king's or rook's steps, than the numbers between).

Run: python tests/plain/number_paths.py (prints the catalogue's puzzles' solutions).
"""

import sys

HIDATO = [
    "_  33 35 _  _  .  .  .",
    "_  _  24 22 _  .  .  .",
    "_  _  _  21 _  _  .  .",
    "_  26 _  13 40 11 .  .",
    "27 _  _  _  9  _  1  .",
    ".  .  _  _  18 _  _  .",
    ".  .  .  .  _  7  _  _",
    ".  .  .  .  .  .  5  _",
]

NUMBRIX = [
    "_  _  _  _  _  _  _  _  _",
    "_  _  46 45 _  55 74 _  _",
    "_  38 _  _  43 _  _  78 _",
    "_  35 _  _  _  _  _  71 _",
    "_  _  33 _  _  _  59 _  _",
    "_  17 _  _  _  _  _  67 _",
    "_  18 _  _  11 _  _  64 _",
    "_  _  24 21 _  1  2  _  _",
    "_  _  _  _  _  _  _  _  _",
]


def _parse(board):
    cells, given = [], {}
    for r, line in enumerate(board):
        for c, item in enumerate(line.split()):
            if item == ".":
                continue
            cells.append((r, c))
            if item != "_":
                given[int(item)] = (r, c)
    return cells, given


def _distance(a, b, diagonal):
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dr, dc) if diagonal else dr + dc


def solutions(board, diagonal, limit=None):
    cells, given = _parse(board)
    n = len(cells)
    cell_set = set(cells)
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    if not diagonal:
        steps = [(dr, dc) for dr, dc in steps if dr == 0 or dc == 0]
    given_cells = set(given.values())
    later = sorted(given)
    found = []
    placed = {}

    def feasible(k, at):
        for g in later:
            if g > k:
                return _distance(at, given[g], diagonal) <= g - k
        return True

    def walk(k, at):
        if limit is not None and len(found) >= limit:
            return
        if k == n:
            grid = [[None] * len(line.split()) for line in board]
            for (r, c), number in placed.items():
                grid[r][c] = number
            found.append(grid)
            return
        following = k + 1
        if following in given:
            target = given[following]
            if _distance(at, target, diagonal) == 1:
                placed[target] = following
                walk(following, target)
                del placed[target]
            return
        for dr, dc in steps:
            step = (at[0] + dr, at[1] + dc)
            if step in cell_set and step not in placed and step not in given_cells and feasible(following, step):
                placed[step] = following
                walk(following, step)
                del placed[step]

    starts = [given[1]] if 1 in given else [c for c in cells if c not in given_cells]
    for start in starts:
        placed[start] = 1
        walk(1, start)
        del placed[start]
    return found


def count(board, diagonal):
    return len(solutions(board, diagonal))


if __name__ == "__main__":
    for name, board, diagonal in (("Hidato", HIDATO, True), ("Numbrix", NUMBRIX, False)):
        found = solutions(board, diagonal)
        print(name, len(found), "solution(s)")
        for grid in found[:2]:
            for row in grid:
                print(" ".join("  " if x is None else f"{x:2d}" for x in row))
        sys.stdout.flush()
