"""KenKen solved by plain backtracking, cell by cell.

Rules implemented:
- An n x n grid of the numbers 1..n, each row and each column holding each number once.
- Cages: each a target, an operation and its cells (row, column from 1). '+': the cells'
  numbers add up to the target; '*': they multiply to it; '-': two cells whose difference
  is the target; '/': two cells, one the target times the other; '=': one cell holding the
  target.
- solutions(n, cages, limit) lists the grids (strings of n*n digits read row by row) that
  keep every rule, at most `limit`; a cage is checked once its last cell is filled.
"""

from __future__ import annotations

from math import prod

Cage = tuple[str, int, list[tuple[int, int]]]


def keeps(op: str, target: int, values: list[int]) -> bool:
    if op == "+":
        return sum(values) == target
    if op == "*":
        return prod(values) == target
    if op == "-":
        return len(values) == 2 and abs(values[0] - values[1]) == target
    if op == "/":
        a, b = sorted(values)
        return len(values) == 2 and b == a * target
    return values == [target]


def solutions(n: int, cages: list[Cage], limit: int = 2) -> list[str]:
    last: dict[int, list[Cage]] = {}
    for cage in cages:
        cells = [(r - 1) * n + (c - 1) for r, c in cage[2]]
        last.setdefault(max(cells), []).append(cage)
    grid = [0] * (n * n)
    found: list[str] = []

    def extend(i: int) -> None:
        if len(found) >= limit:
            return
        if i == n * n:
            found.append("".join(map(str, grid)))
            return
        r, c = divmod(i, n)
        for v in range(1, n + 1):
            if any(grid[r * n + k] == v for k in range(c)) or any(grid[k * n + c] == v for k in range(r)):
                continue
            grid[i] = v
            if all(keeps(op, t, [grid[(a - 1) * n + b - 1] for a, b in cells]) for op, t, cells in last.get(i, [])):
                extend(i + 1)
            grid[i] = 0

    extend(0)
    return found


def from_picture(picture: list[str], clues: dict[str, tuple[str, int]]) -> list[Cage]:
    """Cages from a picture (a letter per cell) and each letter's operation and target."""
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(picture, 1):
        for c, letter in enumerate(row, 1):
            cells.setdefault(letter, []).append((r, c))
    return [(op, target, cells[letter]) for letter, (op, target) in clues.items()]


# The New York Times' KenKen of 4 May 2024 (6 x 6).
NYT_PICTURE = ["abbccd", "aeecdd", "ffgggd", "hhijkk", "liijmm", "linjjm"]
NYT_CLUES = {
    "a": ("+", 8), "b": ("*", 10), "c": ("+", 12), "d": ("*", 30), "e": ("-", 1), "f": ("-", 2), "g": ("+", 6),
    "h": ("/", 2), "i": ("+", 18), "j": ("*", 180), "k": ("-", 2), "l": ("/", 2), "m": ("+", 10), "n": ("=", 1),
}  # fmt: skip

if __name__ == "__main__":
    import time

    began = time.perf_counter()
    found = solutions(6, from_picture(NYT_PICTURE, NYT_CLUES))
    print(f"{len(found)} solution(s) in {time.perf_counter() - began:.2f} s: {found}")
