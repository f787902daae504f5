"""A hand-written IDA* for the fifteen puzzle: the plain Python program puzint's fifteen puzzle
is measured against in benchmarks/report_heuristics.py (issue 41).

This is what a competent programmer would write without puzint: the board is a list of 16
tile numbers in reading order (0 the blank), the goal has the blank in the top-left corner
and tile k on cell k (Korf's convention, benchmarks/korf100.txt). The heuristic is Manhattan
distance plus linear conflicts: in each row (column), the tiles whose goal is that row
(column) and whose order there is not their goal order need 2 more moves for each tile that
must leave the line to let the others pass (the line's tiles less its longest increasing run
of goal places). Row and column conflicts add (they count vertical and horizontal moves).
Both terms are kept incrementally: a move changes one tile's distance by 1 and the conflicts
of the two lines across the move (a horizontal move changes two columns, a vertical two rows).
The search never moves the blank straight back.

    solve(tiles) -> (length, nodes)

`nodes` counts the states the search visits (each call of the depth-first step, the start
included, summed over all the iterations); Korf's 1985 table counts nodes generated, a
different measure (each child generated, also those cut by the bound).

    python benchmarks/handwritten_fifteen.py [N ...] [--max-length L] [--json]

solves Korf's instances named (default: those whose optimal length is at most L, default 45)
and checks each length against the published one. No puzint code is imported here.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

KORF100 = Path(__file__).resolve().parent / "korf100.txt"
SIDE = 4
CELLS = SIDE * SIDE
# cells next to each cell
NEIGHBOURS = [
    [c for c in (i - SIDE, i + SIDE, i - 1 if i % SIDE else -1, i + 1 if (i + 1) % SIDE else -1) if 0 <= c < CELLS]
    for i in range(CELLS)
]
# Manhattan distance of tile t on cell c
DISTANCE = [
    [abs(c // SIDE - t // SIDE) + abs(c % SIDE - t % SIDE) if t else 0 for c in range(CELLS)] for t in range(CELLS)
]
ROWS = [[r * SIDE + k for k in range(SIDE)] for r in range(SIDE)]
COLUMNS = [[k * SIDE + c for k in range(SIDE)] for c in range(SIDE)]


def read_korf100(path: Path = KORF100) -> dict[int, tuple[int, list[int]]]:
    """Korf's instances: number -> (optimal length, the 16 tiles in reading order, 0 the blank)."""
    instances = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            number, length, *tiles = map(int, line.split())
            instances[number] = (length, tiles)
    return instances


def solvable(tiles: list[int]) -> bool:
    """Whether the goal (blank top-left) can be reached: on a board of even width, the parity
    of the tiles' inversions plus the blank's row must be even (as it is at the goal)."""
    order = [t for t in tiles if t]
    inversions = sum(1 for i, a in enumerate(order) for b in order[i + 1 :] if a > b)
    return (inversions + tiles.index(0) // SIDE) % 2 == 0


def _longest_increasing(values: list[int]) -> int:
    best = [1] * len(values)
    for i in range(len(values)):
        for j in range(i):
            if values[j] < values[i] and best[j] + 1 > best[i]:
                best[i] = best[j] + 1
    return max(best, default=0)


def _conflict_tables() -> tuple[list[dict[tuple[int, ...], int]], list[dict[tuple[int, ...], int]]]:
    """For each row and column, a memo from the line's four tiles to its linear-conflict moves."""
    return [{} for _ in range(SIDE)], [{} for _ in range(SIDE)]


def line_conflict(tiles: tuple[int, ...], index: int, rows: bool) -> int:
    """Extra moves (2 a tile) the tiles of one line whose goal is that line need to pass each other."""
    if rows:
        places = [t % SIDE for t in tiles if t and t // SIDE == index]
    else:
        places = [t // SIDE for t in tiles if t and t % SIDE == index]
    return 2 * (len(places) - _longest_increasing(places))


def heuristic(tiles: list[int]) -> int:
    """Manhattan distance plus linear conflicts of a whole board."""
    manhattan = sum(DISTANCE[t][c] for c, t in enumerate(tiles))
    rows = sum(line_conflict(tuple(tiles[c] for c in ROWS[r]), r, True) for r in range(SIDE))
    columns = sum(line_conflict(tuple(tiles[c] for c in COLUMNS[k]), k, False) for k in range(SIDE))
    return manhattan + rows + columns


def solve(start: list[int]) -> tuple[int, int]:
    """The optimal number of moves from `start` to the goal, and the states visited."""
    if not solvable(start):
        raise ValueError("the goal cannot be reached from this position")
    board = list(start)
    row_memo, column_memo = _conflict_tables()

    def row_conflict(r: int) -> int:
        key = (board[r * 4], board[r * 4 + 1], board[r * 4 + 2], board[r * 4 + 3])
        memo = row_memo[r]
        value = memo.get(key)
        if value is None:
            value = memo[key] = line_conflict(key, r, True)
        return value

    def column_conflict(k: int) -> int:
        key = (board[k], board[k + 4], board[k + 8], board[k + 12])
        memo = column_memo[k]
        value = memo.get(key)
        if value is None:
            value = memo[key] = line_conflict(key, k, False)
        return value

    distance = DISTANCE
    neighbours = NEIGHBOURS
    nodes = 0
    INFINITE = 1 << 30

    def search(blank: int, previous: int, g: int, h: int, bound: int) -> int:
        """-1: the goal found below; else the least f above the bound met."""
        nonlocal nodes
        nodes += 1
        f = g + h
        if f > bound:
            return f
        if h == 0:
            return -1
        least = INFINITE
        g += 1
        for cell in neighbours[blank]:
            if cell == previous:
                continue
            tile = board[cell]
            if cell // 4 == blank // 4:  # horizontal: the tile changes column
                old_lines = column_conflict(cell % 4) + column_conflict(blank % 4)
                board[blank] = tile
                board[cell] = 0
                new_lines = column_conflict(cell % 4) + column_conflict(blank % 4)
            else:  # vertical: the tile changes row
                old_lines = row_conflict(cell // 4) + row_conflict(blank // 4)
                board[blank] = tile
                board[cell] = 0
                new_lines = row_conflict(cell // 4) + row_conflict(blank // 4)
            child_h = h - distance[tile][cell] + distance[tile][blank] - old_lines + new_lines
            found = search(cell, blank, g, child_h, bound)
            board[cell] = tile
            board[blank] = 0
            if found == -1:
                return -1
            if found < least:
                least = found
        return least

    h = heuristic(board)
    bound = h
    blank = board.index(0)
    while True:
        found = search(blank, -1, 0, h, bound)
        if found == -1:
            return bound, nodes
        bound = found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("numbers", nargs="*", type=int, help="Korf's instances to solve (1-100)")
    parser.add_argument("--max-length", type=int, default=45, help="without numbers: those this short or shorter")
    parser.add_argument("--json", action="store_true", help="one JSON line an instance")
    options = parser.parse_args()
    instances = read_korf100()
    numbers = options.numbers or sorted(n for n, (length, _) in instances.items() if length <= options.max_length)
    wrong = 0
    for number in numbers:
        published, tiles = instances[number]
        started = time.perf_counter()
        length, nodes = solve(tiles)
        seconds = time.perf_counter() - started
        if options.json:
            print(json.dumps({"instance": number, "length": length, "nodes": nodes, "seconds": round(seconds, 3)}))
        else:
            verdict = "ok" if length == published else f"WRONG: published {published}"
            print(f"#{number}: {length} moves, {nodes} nodes, {seconds:.2f} s  {verdict}", flush=True)
        wrong += length != published
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
