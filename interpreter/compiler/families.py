"""Move families: every form of move compiled behind one interface.

A family turns a state into its successors, each labelled with a move number (`expand`),
and — for families that can be undone — into its predecessors (`expand_back`). Moves are
numbered by the compiled puzzle (`MoveIds`), so that a number always means one concrete
move: which rule, with which choices. What a family must check beyond its own form (the
safety rules) it asks of the puzzle's `Safety`.

- `SlideFamily`: `step` / `slide` / `slide ... until blocked` of one-cell pieces and blocks,
  with precomputed rays; can be undone (except `until blocked`).
- `CarryFamily`: loads between places with a carrier; the load, the place it leaves and the
  place it reaches are checked against the safety rules with answers remembered per contents.
- `GeneralFamily`: the core itself — choose the form's choice and every variable, check the
  guard on the state before the move, apply the effects in order — for guarded rewrites,
  actions (take, put, advance, set, add, let, toggle) and anything combined with them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any

from ..model import expr as m
from ..model.board import Board, Direction
from ..model.puzzle import (
    CURSOR,
    EMPTY,
    NUMBER,
    Advance,
    Carry,
    CellLoc,
    CursorLoc,
    Let,
    Loc,
    Move,
    PlaceLoc,
    Put,
    Puzzle,
    Rewrite,
    SetCounter,
    Slide,
    Take,
    Toggle,
    VarLoc,
)
from .evaluate import HERE, LOAD, EvalError, Evaluator, Fn
from .layout import StateLayout
from .rewrite import Instance, instance, movers, normalise, placements

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


class Safety:
    """The safety rules, compiled: rules on the whole state, and rules on each place (or load)
    whose answer, when they only look at that place, is remembered per contents."""

    def __init__(self, puzzle: Puzzle, layout: StateLayout, evaluator: Evaluator):
        self.layout = layout
        self.slots = max([r.slots for r in puzzle.safety] + [2])
        self.state_rules = [evaluator.compile(r.condition) for r in puzzle.safety if r.scope == "state"]
        self.place_rules: list[tuple[int, Fn, bool]] = []  # (rule number, check, only looks at here)
        self.load_rules: list[tuple[int, Fn, bool]] = []
        for i, rule in enumerate(puzzle.safety):
            fn = evaluator.compile(rule.condition)
            local = m.only_here(rule.condition)
            if rule.scope in ("places", "everywhere"):
                self.place_rules.append((i, fn, local))
            if rule.scope in ("loads", "everywhere"):
                self.load_rules.append((i, fn, local))
        self.rules = puzzle.safety
        self._memo: dict[tuple[str, bytes], int | None] = {}
        self.places_local = all(local for _, _, local in self.place_rules)
        self.loads_local = all(local for _, _, local in self.load_rules)
        self.anything = bool(self.state_rules or self.place_rules)

    def state_ok(self, state: bytes | bytearray) -> bool:
        if not self.state_rules:
            return True
        env: list[Any] = [None] * self.slots
        return all(rule(state, env) for rule in self.state_rules)

    def failing(self, scope: str, bag: bytes, state: bytes | bytearray | None) -> int | None:
        """The first rule of `scope` ("places" or "loads") that fails on this contents, or None."""
        rules = self.place_rules if scope == "places" else self.load_rules
        if not rules:
            return None
        local = self.places_local if scope == "places" else self.loads_local
        key = (scope, bag)
        if local and key in self._memo:
            return self._memo[key]
        env: list[Any] = [None] * self.slots
        env[HERE] = bag
        failed = None
        for number, rule, _ in rules:
            if not rule(state, env):
                failed = number
                break
        if local:
            self._memo[key] = failed
        return failed

    def places_ok(self, state: bytes | bytearray, places: range | tuple[int, ...] | list[int] | None = None) -> bool:
        if not self.place_rules:
            return True
        for p in places if places is not None else range(len(self.layout.places)):
            if self.failing("places", self.layout.bag(state, p), state) is not None:
                return False
        return True

    def ok(self, state: bytes | bytearray) -> bool:
        return self.state_ok(state) and self.places_ok(state)


@dataclass(frozen=True)
class Change:
    """What a move did, for labels: pieces that moved (symbol, from, to: cell or place names,
    None where a piece appears or vanishes)."""

    movers: tuple[tuple[str, str | None, str | None], ...]


# ---- slides and steps


class SlideFamily:
    """One `step` / `slide` move: each piece it may move, in each direction, by 1 (step),
    any distance through empty cells (slide), or as far as it goes (until blocked)."""

    def __init__(self, index: int, move: Move, puzzle: Puzzle, ids: MoveIds, safety: Safety, evaluator: Evaluator):
        form = move.form
        assert isinstance(form, Slide) and puzzle.board is not None
        self.index, self.move, self.ids, self.safety = index, move, ids, safety
        self.board: Board = puzzle.board
        self.cells = puzzle.cell_count
        self.codes = form.codes
        self.mode = form.mode
        self.directions = form.directions
        self.guard = evaluator.compile(move.guard) if move.guard is not None else None
        self.variable_slot = move.variables[0].slot if form.variable is not None else None
        self.slots = move.slots
        self.shapes = {p.code: p.shape for p in puzzle.pieces if p.shape is not None}
        self.parts = puzzle.parts
        self.part_code = {(part.piece, part.offset): code for code, part in enumerate(puzzle.parts)}
        self.evaluator = evaluator
        self.cost = evaluator.compile(move.cost) if move.cost is not None else None
        self.invertible = self.mode != "until" and self.guard is None and not move.actions
        self._rays: dict[tuple[int, int], tuple[int, ...]] = {}
        self._back: list[Direction] | None = None

    def ray(self, cell: int, d: int) -> tuple[int, ...]:
        key = (cell, d)
        found = self._rays.get(key)
        if found is None:
            found = self._rays[key] = self.directions[d].ray(cell)
        return found

    def _targets(self, state: bytes, cell: int, d: int) -> Iterator[int]:
        """Where a one-cell piece on `cell` can go along direction d."""
        ray = self.ray(cell, d)
        mode = self.mode
        last = None
        for k, target in enumerate(ray):
            if state[target]:
                break
            if mode == "step":
                yield target
                return
            if mode == "slide":
                yield target
            last = target
            if k == len(ray) - 1:
                break
        if mode == "until" and last is not None:
            yield last

    def expand(self, state: bytes) -> list[Successor]:
        out: list[Successor] = []
        cells, guard, safe = self.cells, self.guard, self.safety
        for code in self.codes:
            if code in self.shapes:
                self._blocks(state, code, out)
                continue
            i = state.find(code, 0, cells)
            while i >= 0:
                if guard is None or self._guard(state, i):
                    for d in range(len(self.directions)):
                        for t in self._targets(state, i, d):
                            new = bytearray(state)
                            new[i] = EMPTY
                            new[t] = code
                            if safe.anything and not safe.ok(new):
                                continue
                            out.append((bytes(new), self.ids.number((self.index, i, t))))
                i = state.find(code, i + 1, cells)
        return out

    def _guard(self, state: bytes, cell: int) -> bool:
        env: list[Any] = [None] * self.slots
        if self.variable_slot is not None:
            env[self.variable_slot] = cell
        assert self.guard is not None
        return bool(self.guard(state, env))

    def _blocks(self, state: bytes, code: int, out: list[Successor]) -> None:
        """A block moves as one: every cell it moves onto must be empty or its own."""
        shape = self.shapes[code]
        board, cells = self.board, self.cells
        i = state.find(code, 0, cells)
        while i >= 0:
            if self.guard is None or self._guard(state, i):
                origin = board.cells[i]
                own = [board.at(origin.row + dr, origin.col + dc) for dr, dc in shape]  # type: ignore[operator]
                for direction in self.directions:
                    vector = direction.vector
                    if vector is None:
                        continue
                    k = 0
                    last = None
                    while True:
                        k += 1
                        moved = [board.step(c, vector, k) if c is not None else None for c in own]
                        if None in moved or any(state[c] and c not in own for c in moved):  # type: ignore[index]
                            break
                        last = (k, moved)
                        if self.mode == "slide" or self.mode == "step":
                            self._place_block(state, code, own, moved, i, out)  # type: ignore[arg-type]
                        if self.mode == "step":
                            break
                    if self.mode == "until" and last is not None:
                        self._place_block(state, code, own, last[1], i, out)  # type: ignore[arg-type]
            i = state.find(code, i + 1, cells)

    def _place_block(
        self, state: bytes, code: int, own: list[int], moved: list[int], origin: int, out: list[Successor]
    ) -> None:
        new = bytearray(state)
        for c in own:
            new[c] = EMPTY
        for k, c in enumerate(moved):
            new[c] = self.part_code[(code, k)]
        if self.safety.anything and not self.safety.ok(new):
            return
        out.append((bytes(new), self.ids.number((self.index, origin, moved[0]))))

    def expand_back(self, state: bytes) -> list[Successor]:
        """Predecessors: a piece on cell t came from a cell behind it, through empty cells."""
        if self._back is None:
            self._back = [_reverse(d, self.board) for d in self.directions]
        out: list[Successor] = []
        cells = self.cells
        for code in self.codes:
            if code in self.shapes:
                continue  # blocks are searched forwards only
            t = state.find(code, 0, cells)
            while t >= 0:
                for back in self._back:
                    for k, source in enumerate(back.ray(t)):
                        if state[source]:
                            break
                        if self.mode == "step" and k > 0:
                            break
                        new = bytearray(state)
                        new[t] = EMPTY
                        new[source] = code
                        if self.safety.anything and not self.safety.ok(new):
                            continue
                        out.append((bytes(new), self.ids.number((self.index, source, t))))
                t = state.find(code, t + 1, cells)
        return out

    def expand_costed(self, state: bytes) -> list[tuple[bytes, int, int]]:
        out = []
        for child, number in self.expand(state):
            cost = 1
            if self.cost is not None:
                env: list[Any] = [None] * self.slots
                if self.variable_slot is not None:
                    env[self.variable_slot] = self.ids.key(number)[1]
                cost = self.cost(state, env)
            out.append((child, number, cost))
        return out

    def change(self, key: tuple[Any, ...], before: bytes, puzzle: Puzzle) -> Change:
        _, source, target = key
        board = self.board
        return Change(((puzzle.symbol(before[source]), board.name(source), board.name(target)),))


def _reverse(direction: Direction, board: Board) -> Direction:
    steps: list[list[int]] = [[] for _ in range(board.size)]
    for cell, following in enumerate(direction.steps):
        for n in following:
            steps[n].append(cell)
    return Direction(direction.name, None, tuple(tuple(s) for s in steps))


# ---- carrying between places


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
        self.guard = evaluator.compile(move.guard) if move.guard is not None else None
        self.cost = evaluator.compile(move.cost) if move.cost is not None else None
        self.slots = move.slots
        self.with_ = [tuple(c - 1 for c in codes) for codes in form.with_]
        self.only = frozenset(c - 1 for c in form.only) if form.only is not None else None
        self._loads: dict[bytes, list[tuple[bytes, bytes]]] = {}
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

    def expand(self, state: bytes) -> list[Successor]:
        safety = self.safety
        out: list[Successor] = []
        source = self.read_carrier(state)
        for load, target, new, arrived in self.candidates(state):
            if self.guard is not None and not self._guard(state, load):
                continue
            if safety.failing("loads", load, new) is not None:
                continue
            slot = self.layout.places[source]
            if safety.failing("places", new[slot.offset : slot.offset + slot.length], new) is not None:
                continue
            if safety.failing("places", arrived, new) is not None:
                continue
            if not safety.state_ok(new):
                continue
            out.append((new, self.ids.number((self.index, load, source, target))))
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


# ---- the general family: choose, check, change


Chooser = Callable[[bytes, list[Any]], Iterator[tuple[Any, ...]]]


class GeneralFamily:
    """Any move, run by the core: its form's choices, then every variable its actions
    introduce, then lets and the guard on the state before the move, then the effects."""

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
        self.index, self.move, self.puzzle, self.layout, self.ids, self.safety = (
            index,
            move,
            puzzle,
            layout,
            ids,
            safety,
        )
        self.evaluator = evaluator
        self.cells = layout.cells
        self.slots = move.slots
        self.guard = evaluator.compile(move.guard) if move.guard is not None else None
        self.cost = evaluator.compile(move.cost) if move.cost is not None else None
        self.invertible = False
        self.form_instances: list[tuple[Instance, tuple[int, ...], tuple[tuple[int, int], ...]]] = []
        if isinstance(move.form, Rewrite):
            self._rewrite(move.form)
        self.single = bytes(
            [1 if part.piece and puzzle.pieces[part.piece - 1].shape is None else 0 for part in puzzle.parts]
            + [0] * (256 - len(puzzle.parts))
        )
        self.bound_by_actions = self._action_variables()
        self.effects = [self._effect(a) for a in move.actions]
        self.lets = [(a.slot, evaluator.compile(a.value)) for a in move.actions if isinstance(a, Let)]

    # ---- choices
    def _rewrite(self, rule: Rewrite) -> None:
        assert self.puzzle.board is not None
        lhs, rhs = normalise(rule)
        var_slots = {v.name: v.slot for v in self.move.variables}
        names = [c.name for c in lhs if hasattr(c, "name")]
        order = list(dict.fromkeys(names))
        self.pairs = movers(lhs, rhs)
        for cells in placements(self.puzzle.board, self.move, rule):
            inst = instance(lhs, rhs, cells, len(self.form_instances))
            if inst is None:
                continue
            where = {n: cells[[getattr(c, "name", None) for c in lhs].index(n)] for n in order}
            self.form_instances.append((inst, cells, tuple((var_slots[n], where[n]) for n in order)))

    def _action_variables(self) -> list[tuple[int, str, Any]]:
        """(slot, what it ranges over, extra) for each variable the actions introduce, in order."""
        form_vars = set()
        if isinstance(self.move.form, (Rewrite, Slide)):
            form_vars = {v.slot for v in self.move.variables if v.type == m.PIECE}
        out: list[tuple[int, str, Any]] = []
        seen: set[int] = set()
        for action in self.move.actions:
            if isinstance(action, Take):
                if isinstance(action.source, VarLoc) and action.source.slot not in seen:
                    seen.add(action.source.slot)
                    out.append((action.source.slot, action.source.over, None))
                if action.slot not in seen and action.slot not in form_vars:
                    seen.add(action.slot)
                    out.append((action.slot, "take", action.source))
            elif isinstance(action, Put) and isinstance(action.target, VarLoc) and action.target.slot not in seen:
                seen.add(action.target.slot)
                out.append((action.target.slot, action.target.over, None))
            elif isinstance(action, SetCounter) and action.slot is not None and action.slot not in seen:
                seen.add(action.slot)
                out.append((action.slot, "counter", None))
            elif isinstance(action, Toggle) and action.slot not in seen:
                seen.add(action.slot)
                out.append((action.slot, "cell", None))
        return out

    def _form_choices(self, state: bytes) -> Iterator[tuple[bytearray, list[Any], tuple[Any, ...]]]:
        """The form's choices: (the state with the form's change made, env, key)."""
        form = self.move.form
        if isinstance(form, Rewrite):
            single = self.single if self.puzzle.has_blocks else None
            for number, (inst, _cells, where) in enumerate(self.form_instances):
                checks, occupied, same, writes, copies, _ = inst
                if any(state[c] != v for c, v in checks):
                    continue
                if any(not state[c] or (single is not None and not single[state[c]]) for c in occupied):
                    continue
                if any(state[a] != state[b] for a, b in same):
                    continue
                new = bytearray(state)
                for c, v in writes:
                    new[c] = v
                for c, f in copies:
                    new[c] = state[f]
                env: list[Any] = [None] * self.slots
                for slot, cell in where:
                    env[slot] = cell
                yield new, env, (number,)
            return
        yield bytearray(state), [None] * self.slots, ()

    def _values(self, kind: str, extra: Any, state: bytes, env: list[Any], taken: dict[str, set[int]]) -> Iterator[Any]:
        layout, cells = self.layout, self.cells
        if kind == "place":
            return (p for p in range(len(layout.places)) if p not in taken.setdefault("place", set()))
        if kind == "cell":
            return (c for c in range(cells) if c not in taken.setdefault("cell", set()))
        if kind == "counter":
            numbers = [i for i, c in enumerate(self.puzzle.counters) if c.role == NUMBER]
            return (c for c in numbers if c not in taken.setdefault("counter", set()))
        # a piece taken from a location, as it is before the move
        where = self._where(extra, state, env)
        if where is None:
            return iter(())
        kind_of, at = where
        if kind_of == "cell":
            return iter((at,) if state[at] else ())
        slot = layout.places[at]
        if slot.stack:
            contents = layout.stack(state, at)
            return iter((cells + contents[-1],) if contents else ())
        return (cells + i + 1 for i in range(slot.length) if state[slot.offset + i])

    def _where(self, loc: Loc, state: bytes | bytearray, env: list[Any]) -> tuple[str, int] | None:
        if isinstance(loc, PlaceLoc):
            return "place", loc.place
        if isinstance(loc, CellLoc):
            return "cell", loc.cell
        if isinstance(loc, CursorLoc):
            cell = self.layout.reader(loc.counter)(state)
            return ("cell", cell) if cell >= 0 else None
        value = env[loc.slot]
        return (loc.over, value) if value is not None and value >= 0 else None

    def bindings(self, state: bytes) -> Iterator[tuple[bytearray, list[Any], tuple[Any, ...]]]:
        for new, env, key in self._form_choices(state):
            yield from self._bind(state, new, env, key, 0, {})

    def _bind(self, state, new, env, key, i, taken):  # type: ignore[no-untyped-def]
        if i == len(self.bound_by_actions):
            yield (bytearray(new) if self.bound_by_actions else new), list(env), key
            return
        slot, kind, extra = self.bound_by_actions[i]
        for value in list(self._values(kind, extra, state, env, taken)):
            env[slot] = value
            group = taken.setdefault(kind, set()) if kind in ("place", "cell", "counter") else None
            if group is not None:
                group.add(value)
            yield from self._bind(state, new, env, (*key, value), i + 1, taken)
            if group is not None:
                group.discard(value)

    # ---- effects
    def _effect(self, action: Any) -> Callable[[bytes, bytearray, list[Any]], bool]:
        layout, ev = self.layout, self.evaluator
        where = self._where
        if isinstance(action, Take):
            slot = action.slot

            def take(before: bytes, new: bytearray, env: list[Any]) -> bool:
                found = where(action.source, before, env)
                if found is None:
                    return False
                kind, at = found
                if kind == "cell":
                    if not new[at]:
                        return False
                    new[at] = EMPTY
                    return True
                code = ev.code_of(before, env[slot])
                pslot = layout.places[at]
                if pslot.stack:
                    contents = layout.stack(new, at)
                    if not contents or contents[-1] != code:
                        return False
                    new[pslot.offset + len(contents) - 1] = 0
                    return True
                if not new[pslot.offset + code - 1]:
                    return False
                new[pslot.offset + code - 1] -= 1
                return True

            return take
        if isinstance(action, Put):

            def put(before: bytes, new: bytearray, env: list[Any]) -> bool:
                found = where(action.target, before, env)
                if found is None:
                    return False
                code = action.code if action.code is not None else ev.code_of(before, env[action.slot])  # type: ignore[index]
                kind, at = found
                if kind == "cell":
                    if new[at]:
                        return False
                    new[at] = code
                    return True
                pslot = layout.places[at]
                if pslot.stack:
                    contents = layout.stack(new, at)
                    if len(contents) >= pslot.length:
                        return False
                    new[pslot.offset + len(contents)] = code
                    return True
                if new[pslot.offset + code - 1] >= 255:
                    return False
                new[pslot.offset + code - 1] += 1
                return True

            return put
        if isinstance(action, Advance):
            return self._advance(action)
        if isinstance(action, SetCounter):
            new_value = ev.compile(action.value)
            counter, counter_slot = action.counter, action.slot

            def set_counter(before: bytes, new: bytearray, env: list[Any]) -> bool:
                which = counter if counter is not None else env[counter_slot]  # type: ignore[index]
                return layout.write_counter(new, which, new_value(before, env))

            return set_counter
        if isinstance(action, Toggle):
            board = self.puzzle.board
            assert board is not None
            areas = [tuple(c for v in action.shape if (c := board.step(a, v)) is not None) for a in range(board.size)]
            flip = list(range(256))
            flip[action.first], flip[action.second] = action.second, action.first

            def toggle(before: bytes, new: bytearray, env: list[Any]) -> bool:
                for c in areas[env[action.slot]]:
                    new[c] = flip[new[c]]
                return True

            return toggle
        return lambda before, new, env: True  # a let: computed before the guard

    def _advance(self, action: Advance) -> Callable[[bytes, bytearray, list[Any]], bool]:
        layout, cells, pos = self.layout, self.cells, action.amount.pos
        amount = self.evaluator.compile(action.amount)
        read = layout.reader(action.counter)
        direction = action.direction
        top = 64
        table: list[list[int]] | None = None
        if direction is not None:
            table = []
            for c in range(cells):
                row = [c]
                at: int | None = c
                for _ in range(top):
                    at = direction.next(at) if at is not None else None
                    row.append(at if at is not None else NONE)
                table.append(row)

        def advance(before: bytes, new: bytearray, env: list[Any]) -> bool:
            cell = read(before)
            k = amount(before, env)
            if cell < 0:
                target = NONE
            elif table is None:
                target = cell + k if 0 <= cell + k < cells else NONE
            else:
                if k < 0:
                    raise EvalError(
                        pos, f"the cursor advances along a direction by a number of cells, not {k}", "0 or more"
                    )
                if k < len(table[cell]):
                    target = table[cell][k]
                else:
                    at: int | None = cell
                    for _ in range(k):
                        at = direction.next(at) if at is not None else None  # type: ignore[union-attr]
                    target = at if at is not None else NONE
            return layout.write_counter(new, action.counter, target)

        return advance

    # ---- running the move
    def expand(self, state: bytes) -> list[Successor]:
        out: list[Successor] = []
        self.run(state, out.append, with_cost=False)
        return out

    def expand_costed(self, state: bytes) -> list[tuple[bytes, int, int]]:
        out: list[tuple[bytes, int, int]] = []
        self.run(state, out.append, with_cost=True)
        return out

    def expand_back(self, state: bytes) -> list[Successor]:
        """Only toggles are undone (each undoes itself): their predecessors are their successors."""
        assert self.invertible, "expand_back on a move that cannot be undone"
        return self.expand(state)

    def run(self, state: bytes, emit: Callable[[Any], None], with_cost: bool) -> None:
        guard, effects, lets, safety = self.guard, self.effects, self.lets, self.safety
        for new, env, key in self.bindings(state):
            for slot, value in lets:
                env[slot] = value(state, env)
            if guard is not None and not guard(state, env):
                continue
            if not all(effect(state, new, env) for effect in effects):
                continue
            child = bytes(new)
            if child == state or (safety.anything and not safety.ok(child)):
                continue
            number = self.ids.number((self.index, *key))
            if with_cost:
                emit((child, number, self.cost(state, env) if self.cost is not None else 1))
            else:
                emit((child, number))

    def change(self, key: tuple[Any, ...], before: bytes, puzzle: Puzzle) -> Change:
        """Who moved: a rewrite's pairs of cells, and each piece taken and put."""
        out: list[tuple[str, str | None, str | None]] = []
        board = puzzle.board
        rest = list(key[1:])
        if isinstance(self.move.form, Rewrite):
            number = rest.pop(0)
            _, cells, _ = self.form_instances[number]
            inst = self.form_instances[number][0]
            for a, b in self.pairs:
                src = cells[a] if a is not None else None
                dst = cells[b] if b is not None else None
                code = before[src] if src is not None else dict(inst[3]).get(dst, EMPTY)  # type: ignore[arg-type]
                out.append(
                    (
                        puzzle.symbol(code),
                        board.name(src) if src is not None and board else None,
                        board.name(dst) if dst is not None and board else None,
                    )
                )
        env: list[Any] = [None] * self.slots
        for (slot, _, _), value in zip(self.bound_by_actions, rest, strict=False):
            env[slot] = value
        for slot, cell in self.form_instances[key[1]][2] if isinstance(self.move.form, Rewrite) else ():
            env[slot] = cell
        taken: dict[int, tuple[str, str | None]] = {}
        for action in self.move.actions:
            if isinstance(action, Take):
                found = self._where(action.source, before, env)
                code = self.evaluator.code_of(before, env[action.slot]) if env[action.slot] is not None else 0
                taken[action.slot] = (puzzle.pieces[code - 1].symbol if code else "?", self._name(found))
            elif isinstance(action, Put):
                found = self._where(action.target, before, env)
                if action.slot is not None and action.slot in taken:
                    symbol, source = taken.pop(action.slot)
                    out.append((symbol, source, self._name(found)))
                elif action.code is not None:
                    out.append((puzzle.pieces[action.code - 1].symbol, None, self._name(found)))
        for symbol, source in taken.values():
            out.append((symbol, source, None))
        return Change(tuple(out))

    def _name(self, found: tuple[str, int] | None) -> str | None:
        if found is None:
            return None
        kind, at = found
        if kind == "cell":
            assert self.puzzle.board is not None
            return self.puzzle.board.name(at)
        return self.puzzle.places[at].name

    def start_cell(self, key: tuple[Any, ...]) -> int | None:
        """The cell where the move starts: its pattern's first cell, or a toggle's anchor."""
        if isinstance(self.move.form, Rewrite):
            return self.form_instances[key[1]][1][0]
        return self.anchor_of(key)

    def anchor_of(self, key: tuple[Any, ...]) -> int | None:
        """A toggle's anchor cell, for labels."""
        for (slot, kind, _), value in zip(self.bound_by_actions, key[1:], strict=False):
            if kind == "cell" and any(isinstance(a, Toggle) and a.slot == slot for a in self.move.actions):
                return int(value)
        return None


def product_of(*iterables: Any) -> Any:
    return product(*iterables)


CURSOR_ROLE = CURSOR
