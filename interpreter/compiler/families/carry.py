"""`carry LOW..HIGH in CARRIER`: loads between places, checked before any state is built."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from ...model.puzzle import (
    Carry,
    Move,
    Puzzle,
)
from ..evaluate import LOAD, Evaluator
from ..layout import StateLayout
from ..safety import Safety
from .base import Change, MoveIds, Successor


class CarryFamily:
    """`carry LOW..HIGH in CARRIER`: from the carrier's place, every load (how many of each
    kind of piece) along every route."""

    def __init__(
        self,
        index: int,
        move: Move,
        puzzle: Puzzle,
        layout: StateLayout,
        ids: MoveIds,
        safety: Safety,
        evaluator: Evaluator,
    ):
        form = move.form
        assert isinstance(form, Carry)
        self.index, self.move, self.ids, self.safety, self.layout = index, move, ids, safety, layout
        self.form = form
        self.read_carrier = layout.reader(form.carrier)
        self.carrier = form.carrier
        self.routes = {p: sorted(b for a, b in puzzle.routes if a == p) for p in range(len(puzzle.places))}
        self.npieces = len(puzzle.pieces)
        self.guard = evaluator.function(move.guard) if move.guard is not None else None
        self.cost = evaluator.function(move.cost) if move.cost is not None else None
        self.slots = move.slots
        self.with_ = [tuple(c - 1 for c in codes) for codes in form.with_]
        self.only = frozenset(c - 1 for c in form.only) if form.only is not None else None
        self._loads: dict[bytes, list[tuple[bytes, bytes]]] = {}
        self._safe: dict[bytes, list[tuple[bytes, bytes]]] = {}
        self._arrivals: dict[tuple[bytes, bytes], bytes | None] = {}
        self._local = safety.places_local and safety.loads_local  # answers depend on contents only
        self.invertible = False
        self.puzzle = puzzle

    def loads(self, bag: bytes) -> list[tuple[bytes, bytes]]:
        """Every load the rule allows from a place with these contents: (load, what stays)."""
        found = self._loads.get(bag)
        if found is not None:
            return found
        kinds = [i for i, n in enumerate(bag) if n and (self.only is None or i in self.only)]
        units = [i for i in kinds for _ in range(bag[i])]
        seen: set[bytes] = set()
        found = []
        for size in range(self.form.low, min(self.form.high, len(units)) + 1):
            for chosen in combinations(units, size):
                load = bytearray(self.npieces)
                for i in chosen:
                    load[i] += 1
                key = bytes(load)
                if key in seen:
                    continue
                seen.add(key)
                if not all(any(load[i] for i in codes) for codes in self.with_):
                    continue
                stays = bytes(a - b for a, b in zip(bag, load, strict=True))
                found.append((key, stays))
        self._loads[bag] = found
        return found

    def allows(self, bag: bytes, load: bytes) -> bool:
        """Whether `loads(bag)` holds this load, told without making every load."""
        form, only = self.form, self.only
        return (
            form.low <= sum(load) <= form.high
            and all(n <= held for n, held in zip(load, bag, strict=True))
            and (only is None or all(i in only for i, n in enumerate(load) if n))
            and all(any(load[i] for i in codes) for codes in self.with_)
        )

    def candidates(self, state: bytes) -> Iterator[tuple[bytes, int, bytes, bytes]]:
        """(load, target, new state, what stays) for every move before any safety rule."""
        layout = self.layout
        source = self.read_carrier(state)
        slot = layout.places[source]
        bag = bytes(state[slot.offset : slot.offset + slot.length])
        for load, stays in self.loads(bag):
            for target in self.routes[source]:
                tslot = layout.places[target]
                arrived = bytes(
                    a + b for a, b in zip(state[tslot.offset : tslot.offset + tslot.length], load, strict=True)
                )
                new = bytearray(state)
                new[slot.offset : slot.offset + slot.length] = stays
                new[tslot.offset : tslot.offset + tslot.length] = arrived
                layout.write_counter(new, self.carrier, target)
                yield load, target, bytes(new), arrived

    def _safe_loads(self, bag: bytes, state: bytes) -> list[tuple[bytes, bytes]]:
        """The loads from a place with these contents that pass the rules on loads and leave
        the place safe (remembered per contents when the rules only look at contents)."""
        found = self._safe.get(bag)
        if found is None:
            found = [(load, stays) for load, stays in self.loads(bag) if self._safe_load(load, stays, state)]
            if self._local:
                self._safe[bag] = found
        return found

    def _safe_load(self, load: bytes, stays: bytes, state: bytes) -> bool:
        """Whether the rules on loads pass this load, and the place it leaves stays safe."""
        safety = self.safety
        return safety.failing("loads", load, state) is None and safety.failing("places", stays, state) is None

    def _arrive(self, bag: bytes, load: bytes, state: bytes) -> bytes | None:
        """What a place holds once the load arrives, or None if that breaks a rule."""
        key = (bag, load)
        if key in self._arrivals:
            return self._arrivals[key]
        arrived = bytes(a + b for a, b in zip(bag, load, strict=True))
        result = arrived if self.safety.failing("places", arrived, state) is None else None
        if self._local:
            self._arrivals[key] = result
        return result

    def expand(self, state: bytes) -> list[Successor]:
        """Loads are checked before any state is built: the load itself, the place it leaves
        and the place it reaches depend only on who is where, so when no rule looks further
        (the usual case) each check is one lookup in what was remembered."""
        source = self.read_carrier(state)
        sslot = self.layout.places[source]
        return self._moves(state, source, self._safe_loads(state[sslot.offset : sslot.offset + sslot.length], state))

    def moves_to(self, state: bytes, after: bytes) -> list[Successor]:
        """`expand(state)`'s successors that are `after`, in its order, with only the load the
        two states differ by checked: what left the carrier's place (a path that a search kept
        as states, its moves named again, checks one load a step instead of every load).
        Where no single load tells them apart (the carrier stays, or the place gained
        pieces), every successor is made and looked at, as `expand` makes them."""
        source = self.read_carrier(state)
        sslot = self.layout.places[source]
        bag = state[sslot.offset : sslot.offset + sslot.length]
        left = after[sslot.offset : sslot.offset + sslot.length]
        if self.read_carrier(after) == source or any(b < a for a, b in zip(left, bag, strict=True)):
            return [successor for successor in self.expand(state) if successor[0] == after]
        load = bytes(b - a for a, b in zip(left, bag, strict=True))
        if not self.allows(bag, load) or not self._safe_load(load, left, state):
            return []
        return [successor for successor in self._moves(state, source, [(load, left)]) if successor[0] == after]

    def _moves(self, state: bytes, source: int, loads: list[tuple[bytes, bytes]]) -> list[Successor]:
        """The successors by these loads (each already passed the rules on loads and on the
        place it leaves) from the carrier's place, along every route."""
        out: list[Successor] = []
        layout, places = self.layout, self.layout.places
        sslot = places[source]
        s_lo, s_hi = sslot.offset, sslot.offset + sslot.length
        state_ok = self.safety.state_ok
        number, index, guard = self.ids.number, self.index, self.guard
        for load, stays in loads:
            if guard is not None and not self._guard(state, load):
                continue
            for target in self.routes[source]:
                tslot = places[target]
                t_lo, t_hi = tslot.offset, tslot.offset + tslot.length
                arrived = self._arrive(state[t_lo:t_hi], load, state)
                if arrived is None:
                    continue
                new = bytearray(state)
                new[s_lo:s_hi] = stays
                new[t_lo:t_hi] = arrived
                layout.write_counter(new, self.carrier, target)
                if not state_ok(new):
                    continue
                out.append((bytes(new), number((index, load, source, target))))
        return out

    def _guard(self, state: bytes, load: bytes) -> bool:
        env: list[Any] = [None] * self.slots
        env[LOAD] = load
        assert self.guard is not None
        return bool(self.guard(state, env))

    def expand_costed(self, state: bytes) -> list[tuple[bytes, int, int]]:
        out = []
        for child, number in self.expand(state):
            cost = 1
            if self.cost is not None:
                env: list[Any] = [None] * self.slots
                env[LOAD] = self.ids.key(number)[1]
                cost = self.cost(state, env)
            out.append((child, number, cost))
        return out

    def expand_back(self, state: bytes) -> list[Successor]:
        raise AssertionError("carry moves are searched forwards only")

    def why_not(self, state: bytes, load: bytes, target: int, new: bytes) -> tuple[int, str] | None:
        """The rule a candidate move breaks, and where: the load ("the boat") or a place."""
        failed = self.safety.failing("loads", load, new)
        if failed is not None:
            return failed, f"the {self.puzzle.counters[self.carrier].name}"
        for place in (self.read_carrier(state), target):
            failed = self.safety.failing("places", self.layout.bag(new, place), new)
            if failed is not None:
                return failed, self.puzzle.places[place].name
        return None

    def change(self, key: tuple[Any, ...], before: bytes, puzzle: Puzzle) -> Change:
        _, load, source, target = key
        names = puzzle.places
        movers = tuple(
            (puzzle.pieces[i].symbol, names[source].name, names[target].name)
            for i, n in enumerate(load)
            for _ in range(n)
        )
        return Change(movers)
