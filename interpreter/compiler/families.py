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
        self._env: list[Any] = [None] * self.slots
        self.single_rule: tuple[Fn, list[Any]] | None = None
        if not self.place_rules and len(self.state_rules) == 1:
            self.single_rule = (self.state_rules[0], self._env)
        self.check = self._fastest_check()

    def _fastest_check(self) -> Callable[[bytes | bytearray], bool]:
        """`ok`, as few calls deep as the rules allow (it runs on every candidate move)."""
        if self.place_rules or len(self.state_rules) != 1:
            return self.ok
        rule, env = self.state_rules[0], self._env
        return lambda state: rule(state, env)  # type: ignore[no-any-return]

    def state_ok(self, state: bytes | bytearray) -> bool:
        env = self._env  # rules are evaluated one at a time: one environment serves them all
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
        if not self.state_ok(state):
            return False
        return not self.place_rules or self.places_ok(state)


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

    def moves(self, state: bytes) -> Iterator[tuple[int, int, bytearray]]:
        """Every move the form allows, before the guard and the safety rules: (the cell the
        piece leaves (a block: its anchor), the cell it reaches, the state after)."""
        cells = self.cells
        for code in self.codes:
            if code in self.shapes:
                yield from self._block_moves(state, code)
                continue
            i = state.find(code, 0, cells)
            while i >= 0:
                for d in range(len(self.directions)):
                    for t in self._targets(state, i, d):
                        new = bytearray(state)
                        new[i] = EMPTY
                        new[t] = code
                        yield i, t, new
                i = state.find(code, i + 1, cells)

    def expand(self, state: bytes) -> list[Successor]:
        out: list[Successor] = []
        guard, safe = self.guard, self.safety
        checked, allowed = -1, True
        for source, target, new in self.moves(state):
            if guard is not None:
                if source != checked:
                    checked, allowed = source, self._guard(state, source)
                if not allowed:
                    continue
            if safe.anything and not safe.ok(new):
                continue
            out.append((bytes(new), self.ids.number((self.index, source, target))))
        return out

    def _guard(self, state: bytes, cell: int) -> bool:
        env: list[Any] = [None] * self.slots
        if self.variable_slot is not None:
            env[self.variable_slot] = cell
        assert self.guard is not None
        return bool(self.guard(state, env))

    def _block_moves(self, state: bytes, code: int) -> Iterator[tuple[int, int, bytearray]]:
        """A block moves as one: every cell it moves onto must be empty or its own."""
        shape = self.shapes[code]
        board, cells = self.board, self.cells
        i = state.find(code, 0, cells)
        while i >= 0:
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
                    last = moved
                    if self.mode in ("slide", "step"):
                        yield i, moved[0], self._placed(state, code, own, moved)  # type: ignore[arg-type,misc]
                    if self.mode == "step":
                        break
                if self.mode == "until" and last is not None:
                    yield i, last[0], self._placed(state, code, own, last)  # type: ignore[arg-type,misc]
            i = state.find(code, i + 1, cells)

    def _placed(self, state: bytes, code: int, own: list[int], moved: list[int]) -> bytearray:
        new = bytearray(state)
        for c in own:
            new[c] = EMPTY
        for k, c in enumerate(moved):
            new[c] = self.part_code[(code, k)]
        return new

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
            safety = self.safety
            found = [
                (load, stays)
                for load, stays in self.loads(bag)
                if safety.failing("loads", load, state) is None and safety.failing("places", stays, state) is None
            ]
            if self._local:
                self._safe[bag] = found
        return found

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
        out: list[Successor] = []
        layout, places = self.layout, self.layout.places
        source = self.read_carrier(state)
        sslot = places[source]
        s_lo, s_hi = sslot.offset, sslot.offset + sslot.length
        state_ok = self.safety.state_ok
        number, index, guard = self.ids.number, self.index, self.guard
        for load, stays in self._safe_loads(state[s_lo:s_hi], state):
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
        # a slide or a carry followed by actions: their own families make the form's choices
        self._slide = SlideFamily(index, move, puzzle, ids, safety, evaluator) if isinstance(move.form, Slide) else None
        self._carry = (
            CarryFamily(index, move, puzzle, layout, ids, safety, evaluator) if isinstance(move.form, Carry) else None
        )
        self._form_key = {Rewrite: 1, Slide: 2, Carry: 3}.get(type(move.form), 0)
        self.single = bytes(
            [1 if part.piece and puzzle.pieces[part.piece - 1].shape is None else 0 for part in puzzle.parts]
            + [0] * (256 - len(puzzle.parts))
        )
        self.bound_by_actions = self._action_variables()
        kinds = [kind for _, kind, _ in self.bound_by_actions]
        self._same_kind = [
            [self.bound_by_actions[j][0] for j in range(i) if kinds[j] == kinds[i] and kinds[i] != "take"]
            for i in range(len(kinds))
        ]
        self._all_places = list(range(len(layout.places)))
        self._all_cells = list(range(layout.cells))
        self._number_counters = [i for i, c in enumerate(puzzle.counters) if c.role == NUMBER]
        self._env: list[Any] = [None] * self.slots
        self.effects = [self._effect(a) for a in move.actions]
        self.lets = [(a.slot, evaluator.compile(a.value)) for a in move.actions if isinstance(a, Let)]
        self._bag_take = self._bag_take_shape()
        self._bag_numbers: list[int | None] = [None] * layout.pieces
        self._placing = self._place_and_advance_shape()
        if self._placing is not None:
            self.expand = self._placing_expander()  # type: ignore[method-assign,assignment]

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

    def _form_states(self, state: bytes, env: list[Any]) -> Iterator[tuple[bytearray, tuple[Any, ...]]]:
        """The form's choices: the state with the form's change made, and the choice's key
        (the form's variables are set in `env`)."""
        form = self.move.form
        if self._slide is not None:
            slot = self._slide.variable_slot
            for source, target, new in self._slide.moves(state):
                if slot is not None:
                    env[slot] = source
                yield new, (source, target)
            return
        if self._carry is not None:
            source = self._carry.read_carrier(state)
            for load, target, child, _ in self._carry.candidates(state):
                if self.safety.failing("loads", load, child) is not None:
                    continue
                env[LOAD] = load
                yield bytearray(child), (load, source, target)
            return
        if not isinstance(form, Rewrite):
            yield bytearray(state), ()
            return
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
            for slot, cell in where:
                env[slot] = cell
            yield new, (number,)

    def _values(self, kind: str, extra: Any, state: bytes, env: list[Any]) -> list[Any]:
        """The values a variable can take in this state (before the move)."""
        cells = self.cells
        if kind == "place":
            return self._all_places
        if kind == "cell":
            return self._all_cells
        if kind == "counter":
            return self._number_counters
        # a piece taken from a location, as it is before the move
        where = self._where(extra, state, env)
        if where is None:
            return []
        kind_of, at = where
        if kind_of == "cell":
            return [at] if state[at] else []
        slot = self.layout.places[at]
        if slot.stack:
            contents = state[slot.offset : slot.offset + slot.length].rstrip(b"\0")
            return [cells + contents[-1]] if contents else []
        offset = slot.offset
        return [cells + i + 1 for i in range(slot.length) if state[offset + i]]

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
        """Every choice of the move (its form's and its variables'), with the state after the
        form, before the actions: for labels and checks, not the hot path."""
        env: list[Any] = [None] * self.slots
        found: list[tuple[bytearray, list[Any], tuple[Any, ...]]] = []

        def collect(state: bytes, base: bytearray, env: list[Any], key: tuple[Any, ...]) -> None:
            found.append((bytearray(base), list(env), key))

        for base, key in self._form_states(state, env):
            self._choose(0, state, base, env, key, collect)
        return iter(found)

    def _choose(self, i: int, state: bytes, base: bytearray, env: list[Any], key: tuple[Any, ...], finish: Any) -> None:
        """Bind the variables the actions introduce, one after the other (distinct places,
        cells and counters for distinct variables), then `finish` the move."""
        if i == len(self.bound_by_actions):
            finish(state, base, env, key)
            return
        slot, kind, extra = self.bound_by_actions[i]
        others = self._same_kind[i]
        for value in self._values(kind, extra, state, env):
            if others and any(env[o] == value for o in others):
                continue
            env[slot] = value
            self._choose(i + 1, state, base, env, (*key, value), finish)

    # ---- effects
    def _effect(self, action: Any) -> Callable[[bytes, bytearray, list[Any]], bool]:
        """One action as a function (state before, state being built, env) -> still possible?
        Locations known before the search are resolved here, once."""
        layout, ev = self.layout, self.evaluator
        if isinstance(action, Take):
            return self._take(action)
        if isinstance(action, Put):
            return self._put(action)
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

    def _take(self, action: Take) -> Callable[[bytes, bytearray, list[Any]], bool]:
        layout, cells, slot, where = self.layout, self.cells, action.slot, self._where
        source = action.source
        if isinstance(source, PlaceLoc) and not layout.places[source.place].stack:
            base = layout.places[source.place].offset - 1 - cells  # + piece value -> its count

            def take_from_bag(before: bytes, new: bytearray, env: list[Any]) -> bool:
                at = base + env[slot]
                if not new[at]:
                    return False
                new[at] -= 1
                return True

            return take_from_bag

        def take(before: bytes, new: bytearray, env: list[Any]) -> bool:
            found = where(source, before, env)
            if found is None:
                return False
            kind, at = found
            if kind == "cell":
                if not new[at]:
                    return False
                new[at] = EMPTY
                return True
            code = self.evaluator.code_of(before, env[slot])
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

    def _put(self, action: Put) -> Callable[[bytes, bytearray, list[Any]], bool]:
        layout, where, code_of = self.layout, self._where, self.evaluator.code_of
        target, slot, fixed = action.target, action.slot, action.code
        if isinstance(target, CursorLoc):
            read = layout.reader(target.counter)
            cells = self.cells
            counter = layout.counters[target.counter]
            if counter.width == 1 and fixed is None:
                at = counter.offset  # the cursor's byte holds its cell + 1 (0: off the board)

                def put_taken_at_cursor(before: bytes, new: bytearray, env: list[Any]) -> bool:
                    cell = before[at] - 1
                    if cell < 0 or new[cell]:
                        return False
                    piece = env[slot]  # type: ignore[index]
                    new[cell] = piece - cells if piece >= cells else before[piece]
                    return True

                return put_taken_at_cursor

            def put_at_cursor(before: bytes, new: bytearray, env: list[Any]) -> bool:
                cell = read(before)
                if cell < 0 or new[cell]:
                    return False
                piece = env[slot]  # type: ignore[index]
                new[cell] = fixed if fixed is not None else (piece - cells if piece >= cells else before[piece])
                return True

            return put_at_cursor

        def put(before: bytes, new: bytearray, env: list[Any]) -> bool:
            found = where(target, before, env)
            if found is None:
                return False
            code = fixed if fixed is not None else code_of(before, env[slot])  # type: ignore[index]
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

        counter = layout.counters[action.counter]
        if counter.width == 1 and table is not None:
            at = counter.offset  # the cursor's byte holds its cell + 1 (0: off the board)

            def advance_one_byte(before: bytes, new: bytearray, env: list[Any]) -> bool:
                cell = before[at] - 1
                if cell < 0:
                    return True  # off the board it stays off
                k = amount(before, env)
                row = table[cell]  # type: ignore[index]
                if 0 <= k < len(row):
                    new[at] = row[k] + 1
                    return True
                if k < 0:
                    raise EvalError(
                        pos, f"the cursor advances along a direction by a number of cells, not {k}", "0 or more"
                    )
                reached: int | None = cell
                for _ in range(k):
                    reached = direction.next(reached) if reached is not None else None  # type: ignore[union-attr]
                new[at] = (reached if reached is not None else NONE) + 1
                return True

            return advance_one_byte

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
        check = safety.check if safety.anything else None
        number, index, cost = self.ids.number, self.index, self.cost
        env = self._env

        def finish(state: bytes, base: bytearray, env: list[Any], key: tuple[Any, ...]) -> None:
            for slot, value in lets:
                env[slot] = value(state, env)
            if guard is not None and not guard(state, env):
                return
            new = bytearray(base)
            for effect in effects:
                if not effect(state, new, env):
                    return
            if check is not None and not check(new):
                return
            child = bytes(new)
            if child == state:
                return
            move = number((index, *key))
            if with_cost:
                emit((child, move, cost(state, env) if cost is not None else 1))
            else:
                emit((child, move))

        if self._placing is not None and self._bag_take is not None:
            slot = self._bag_take[0]
            for child, move in self.expand(state):
                if with_cost:
                    env[slot] = self.ids.key(move)[1]
                    emit((child, move, self.cost(state, env) if self.cost is not None else 1))
                else:
                    emit((child, move))
            return
        if self._bag_take is not None:
            self._run_bag_take(state, emit, with_cost)
            return
        for base, key in self._form_states(state, env):
            self._choose(0, state, base, env, key, finish)

    def _bag_take_shape(self) -> tuple[int, int] | None:
        """(slot, offset) when the move's only choice is a piece taken from one bag (and the
        take comes first): the shape of "place the next token", run by a flat loop."""
        if self.move.form is not None or len(self.bound_by_actions) != 1:
            return None
        slot, kind, source = self.bound_by_actions[0]
        first = self.move.actions[0]
        if kind != "take" or not isinstance(first, Take) or first.slot != slot:
            return None
        if not isinstance(source, PlaceLoc) or self.layout.places[source.place].stack:
            return None
        return slot, self.layout.places[source.place].offset

    def _place_and_advance_shape(self) -> tuple[int, int, list[int], list[list[int]]] | None:
        """When the move is `take ?t from BAG, put ?t at cursor, advance cursor by (?t | N)
        [along D]` (a one-byte cursor): (cursor byte, amount of each piece, where the cursor
        goes from each cell by each amount): the whole move is then a few table lookups."""
        if self._bag_take is None or len(self.move.actions) != 3 or self.lets:
            return None
        take, put, advance = self.move.actions
        if not (isinstance(put, Put) and isinstance(advance, Advance)):
            return None
        if not isinstance(put.target, CursorLoc) or put.slot != take.slot or put.target.counter != advance.counter:  # type: ignore[union-attr]
            return None
        counter = self.layout.counters[advance.counter]
        if counter.width != 1:
            return None
        amount = advance.amount
        if isinstance(amount, m.ValueOf) and isinstance(amount.piece, m.Local) and amount.piece.slot == take.slot:  # type: ignore[union-attr]
            amounts = [p.value if p.value is not None else -1 for p in self.puzzle.pieces]
        elif isinstance(amount, m.Const) and isinstance(amount.value, int):
            amounts = [int(amount.value)] * len(self.puzzle.pieces)
        else:
            return None
        if min(amounts) < 0:
            return None
        top = max(amounts)
        cells = self.cells
        table: list[list[int]] = []
        for cell in range(cells):
            row = []
            for k in range(top + 1):
                if advance.direction is None:
                    row.append(cell + k if cell + k < cells else NONE)
                else:
                    at: int | None = cell
                    for _ in range(k):
                        at = advance.direction.next(at) if at is not None else None
                    row.append(at if at is not None else NONE)
            table.append(row)
        return counter.offset, 0, amounts, table

    def _placing_expander(self) -> Callable[[bytes], list[Successor]]:
        """`expand` for the place-and-advance shape: one loop over the pieces in the bag."""
        assert self._bag_take is not None and self._placing is not None
        slot, offset = self._bag_take
        at, _, amounts, table = self._placing
        guard, env, cells, numbers = self.guard, self._env, self.cells, self._bag_numbers
        safety = self.safety
        rule, rule_env = safety.single_rule if safety.single_rule is not None else (None, [])
        check = safety.check if safety.anything and rule is None else None
        kinds = range(self.layout.pieces)

        def expand(state: bytes) -> list[Successor]:
            out: list[Successor] = []
            cursor = state[at] - 1
            if cursor < 0 or state[cursor]:
                return out  # nothing can be put where the cursor is
            row = table[cursor]
            for i in kinds:
                if not state[offset + i]:
                    continue
                if guard is not None:
                    env[slot] = cells + i + 1
                    if not guard(state, env):
                        continue
                new = bytearray(state)
                new[offset + i] -= 1
                new[cursor] = i + 1
                new[at] = row[amounts[i]] + 1
                if rule is not None and not rule(new, rule_env):
                    continue
                if check is not None and not check(new):
                    continue
                move = numbers[i]
                if move is None:
                    move = numbers[i] = self.ids.number((self.index, cells + i + 1))
                out.append((bytes(new), move))
            return out

        return expand

    def _run_bag_take(self, state: bytes, emit: Callable[[Any], None], with_cost: bool) -> None:
        assert self._bag_take is not None
        slot, offset = self._bag_take
        guard, lets, cost, env, cells = self.guard, self.lets, self.cost, self._env, self.cells
        effects = self.effects[1:]  # the take itself is done here
        check = self.safety.check if self.safety.anything else None
        numbers = self._bag_numbers
        for i in range(self.layout.pieces):
            if not state[offset + i]:
                continue
            env[slot] = cells + i + 1
            for let_slot, value in lets:
                env[let_slot] = value(state, env)
            if guard is not None and not guard(state, env):
                continue
            new = bytearray(state)
            new[offset + i] -= 1
            for effect in effects:
                if not effect(state, new, env):
                    break
            else:
                if check is not None and not check(new):
                    continue
                child = bytes(new)
                move = numbers[i]
                if move is None:
                    move = numbers[i] = self.ids.number((self.index, cells + i + 1))
                emit((child, move, cost(state, env) if cost is not None else 1) if with_cost else (child, move))

    def change(self, key: tuple[Any, ...], before: bytes, puzzle: Puzzle) -> Change:
        """Who moved: the form's pieces (a rewrite's pairs of cells, the piece that slid, the
        load carried), and each piece taken and put."""
        out: list[tuple[str, str | None, str | None]] = []
        board = puzzle.board
        form_key, values = key[1 : 1 + self._form_key], key[1 + self._form_key :]
        env: list[Any] = [None] * self.slots
        if isinstance(self.move.form, Rewrite):
            (number,) = form_key
            inst, cells, where = self.form_instances[number]
            assert board is not None
            for a, b in self.pairs:
                src = cells[a] if a is not None else None
                dst = cells[b] if b is not None else None
                code = before[src] if src is not None else dict(inst[3]).get(dst, EMPTY)  # type: ignore[arg-type]
                out.append(
                    (
                        puzzle.symbol(code),
                        board.name(src) if src is not None else None,
                        board.name(dst) if dst is not None else None,
                    )
                )
            for slot, cell in where:
                env[slot] = cell
        elif self._slide is not None:
            out.extend(self._slide.change((self.index, *form_key), before, puzzle).movers)
            if self._slide.variable_slot is not None:
                env[self._slide.variable_slot] = form_key[0]
        elif self._carry is not None:
            out.extend(self._carry.change((self.index, *form_key), before, puzzle).movers)
        for (slot, _, _), value in zip(self.bound_by_actions, values, strict=False):
            env[slot] = value
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
        """The cell where the move starts: its pattern's first cell, the piece that slides,
        or a toggle's anchor."""
        if isinstance(self.move.form, Rewrite):
            return int(self.form_instances[key[1]][1][0])
        if self._slide is not None:
            return int(key[1])
        return self.anchor_of(key)

    def anchor_of(self, key: tuple[Any, ...]) -> int | None:
        """A toggle's anchor cell, for labels."""
        for (slot, kind, _), value in zip(self.bound_by_actions, key[1 + self._form_key :], strict=False):
            if kind == "cell" and any(isinstance(a, Toggle) and a.slot == slot for a in self.move.actions):
                return int(value)
        return None


def product_of(*iterables: Any) -> Any:
    return product(*iterables)


CURSOR_ROLE = CURSOR
