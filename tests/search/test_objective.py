"""search.objective.best_of: every path of the best value, in the order found, and nothing
handed on before the walk has ended."""

from __future__ import annotations

from collections.abc import Iterator

from puzint.search.objective import best_of

Path = list[tuple[int, bytes]]


def walk(values: list[int], seen: list[int]) -> Iterator[Path]:
    for i, v in enumerate(values):
        seen.append(i)
        yield [(i, bytes([v]))]


def test_the_largest_and_every_tie_in_the_order_found() -> None:
    seen: list[int] = []
    kept = best_of(walk([3, 7, 1, 7, 5], seen), lambda s: s[0], lambda a, b: a > b, b"\x00")
    first = next(kept)
    assert seen == [0, 1, 2, 3, 4]  # the whole walk, before the first is handed on
    assert [first, *kept] == [[(1, b"\x07")], [(3, b"\x07")]]


def test_the_smallest() -> None:
    kept = list(best_of(walk([3, 7, 1, 7, 1], []), lambda s: s[0], lambda a, b: a < b, b"\x00"))
    assert kept == [[(2, b"\x01")], [(4, b"\x01")]]


def test_an_empty_path_is_the_start_and_no_path_is_nothing() -> None:
    assert list(best_of(iter([[]]), lambda s: s[0], lambda a, b: a > b, b"\x09")) == [[]]
    assert list(best_of(iter([]), lambda s: s[0], lambda a, b: a > b, b"\x09")) == []
