"""What every move family shares: the numbering of concrete moves, and what a move did."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...model import expr as m

Successor = tuple[bytes, int]
NONE = m.NONE


class MoveIds:
    """Numbers for concrete moves: (family, key) -> number, and back."""

    def __init__(self, first: int = 0):
        self.first = first
        self.ids: dict[tuple[Any, ...], int] = {}
        self.keys: list[tuple[Any, ...]] = []

    def number(self, key: tuple[Any, ...]) -> int:
        found = self.ids.get(key)
        if found is None:
            found = self.first + len(self.keys)
            self.ids[key] = found
            self.keys.append(key)
        return found

    def key(self, number: int) -> tuple[Any, ...]:
        return self.keys[number - self.first]


@dataclass(frozen=True)
class Change:
    """What a move did, for labels: pieces that moved (symbol, from, to: cell or place names,
    None where a piece appears or vanishes)."""

    movers: tuple[tuple[str, str | None, str | None], ...]
