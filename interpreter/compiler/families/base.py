"""What every move family shares: the numbering of concrete moves, and what a move did."""

from __future__ import annotations

import threading
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
        self._new = threading.Lock()

    def number(self, key: tuple[Any, ...]) -> int:
        """The key's number, given it the first time it is met. A new number is given under a
        lock: `puzint play` lists a state's moves on one thread while a hint searches the same
        puzzle on another, and two keys given the same number would name one move for another."""
        found = self.ids.get(key)
        if found is None:
            with self._new:
                found = self.ids.get(key)
                if found is None:
                    found = self.first + len(self.keys)
                    self.keys.append(key)
                    self.ids[key] = found
        return found

    def key(self, number: int) -> tuple[Any, ...]:
        return self.keys[number - self.first]


@dataclass(frozen=True)
class Change:
    """What a move did, for labels: pieces that moved (symbol, from, to: cell or place names,
    None where a piece appears or vanishes)."""

    movers: tuple[tuple[str, str | None, str | None], ...]
