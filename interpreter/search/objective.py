"""A filling's objective (`maximize EXPR`, `minimize EXPR`) over a walk of its solutions: the
walk runs to its end, and only the solutions of the best value are handed on. Correct by
construction for any engine that yields every solution once (a limit met on the way stops
the walk before anything is handed on: a best value not proven is never given as one)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

Path = list[tuple[int, bytes]]


def best_of(
    paths: Iterable[Path], value: Callable[[bytes], int], better: Callable[[int, int], bool], start: bytes
) -> Iterator[Path]:
    """Every path of `paths` whose last state has the best `value` (`better(a, b)`: a is
    better than b), in the order found."""
    kept: list[Path] = []
    top: int | None = None
    for path in paths:
        found = value(path[-1][1] if path else start)
        if top is None or better(found, top):
            top, kept = found, [path]
        elif found == top:
            kept.append(path)
    yield from kept
