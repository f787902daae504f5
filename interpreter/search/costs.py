"""Costs of several parts, compared part by part: with `cost 1, 1` for a push and `cost 0, 1`
for a walk, the cheapest solution has the fewest pushes and, among those, the fewest moves
(Sokoban's usual metric). Such a cost adds part by part and orders as its first part that
differs; 0 (what the start costs) is every part 0. The searches only add and compare costs,
so a whole number and a `LexCost` run through the same code."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any


class LexCost(tuple[int, ...]):
    """A cost of several whole numbers, the first the most important."""

    __slots__ = ()

    def _other(self, other: Any) -> tuple[int, ...] | None:
        if isinstance(other, LexCost) and len(other) == len(self):
            return tuple(other)
        if isinstance(other, int) and other == 0:
            return (0,) * len(self)
        return None

    def __add__(self, other: Any) -> LexCost:  # type: ignore[override]
        parts = self._other(other)
        if parts is None:
            return NotImplemented
        return LexCost(a + b for a, b in zip(self, parts, strict=True))

    def __radd__(self, other: Any) -> LexCost:
        return self.__add__(other)

    def __neg__(self) -> LexCost:
        return LexCost(-part for part in self)

    def _compared(self, other: Any, order: Callable[[tuple[int, ...], tuple[int, ...]], bool]) -> bool:
        parts = self._other(other)
        return NotImplemented if parts is None else order(tuple(self), parts)

    def __lt__(self, other: Any) -> bool:
        return self._compared(other, operator.lt)

    def __le__(self, other: Any) -> bool:
        return self._compared(other, operator.le)

    def __gt__(self, other: Any) -> bool:
        return self._compared(other, operator.gt)

    def __ge__(self, other: Any) -> bool:
        return self._compared(other, operator.ge)

    def __eq__(self, other: object) -> bool:
        parts = self._other(other)
        return tuple(self) == parts if parts is not None else False

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return tuple.__hash__(self)

    def __bool__(self) -> bool:
        return any(self)

    def __str__(self) -> str:
        return ", ".join(str(part) for part in self)

    def __format__(self, spec: str) -> str:
        return ", ".join(format(part, spec) for part in self)


def plain(cost: object) -> object:
    """A cost as the JSON and the expectation files write it: a number, or a list of parts."""
    return list(cost) if isinstance(cost, LexCost) else cost
