"""Exact cover, by Knuth's Algorithm X: every way to choose rows (a tiling's placements) so
that each column (a cell to cover, a piece to place) is covered exactly once.

The column with the fewest rows left is covered first (a cell that only two placements can
still reach is decided before one that forty can); choosing a row removes every row that
shares a column with it. The sets of rows are kept per column as Python sets (the
"dictionary" form of dancing links), which is short and plain; the compiled kernel walks the
same problem far faster (`kernel.fill.cover`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .limits import Limits


def exact_covers(
    rows: Sequence[Sequence[int]], columns: int, limits: Limits, visited: list[int]
) -> Iterator[list[int]]:
    """Each exact cover (the rows chosen), as found. `rows[i]` lists the columns row i covers
    (numbered 0..columns-1); visited[0] counts the rows tried."""
    by_column: list[set[int]] = [set() for _ in range(columns)]
    for i, row in enumerate(rows):
        for column in row:
            by_column[column].add(i)
    open_columns = set(range(columns))
    chosen: list[int] = []
    budget = [limits.check(0, stored=False)]

    def cover(row: int) -> list[tuple[int, set[int]]]:
        taken: list[tuple[int, set[int]]] = []
        for column in rows[row]:
            open_columns.discard(column)
            for other in by_column[column]:
                for other_column in rows[other]:
                    if other_column != column:
                        by_column[other_column].discard(other)
            taken.append((column, by_column[column]))
        return taken

    def uncover(row: int, taken: list[tuple[int, set[int]]]) -> None:
        for column, members in reversed(taken):
            open_columns.add(column)
            for other in members:
                for other_column in rows[other]:
                    if other_column != column:
                        by_column[other_column].add(other)

    def search() -> Iterator[list[int]]:
        if not open_columns:
            yield list(chosen)
            return
        column = min(open_columns, key=lambda c: len(by_column[c]))
        for row in sorted(by_column[column]):
            visited[0] += 1
            budget[0] -= 1
            if budget[0] <= 0:
                budget[0] = limits.check(visited[0], stored=False)
            chosen.append(row)
            taken = cover(row)
            yield from search()
            uncover(row, taken)
            chosen.pop()

    yield from search()
