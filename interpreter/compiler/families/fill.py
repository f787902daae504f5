"""A filling as moves (`FillForm`): from a state, decide the next open thing (a cell, in
reading order, then a counter) in each way its domain allows, and keep only the states where
no rule is already broken.

The rules hold of the complete filling. To check them on the way, each rule is cut into
*instances* (a rule `every l in rows: all different(l)` is one instance per row; `A and B`
is two), and each instance is checked as soon as everything it reads is decided — the
move that decides its last open thing checks it. An `all different` over cells is checked at
every move that fills one of them (the cells still open are empty, and left out), since a
repeat can only stay. A state that breaks an instance has no filling that keeps the rules:
leaving it out never loses a solution, and every complete filling reached keeps every rule.

This is the filling as the state-space engines walk it (`search all`, `search any`, in
Python); the fill searches (`search.fill`, `search.propagation`, the kernel's `kernel.fill.fill`)
search the same fillings faster, most constrained first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ...errors import Pos
from ...model import expr as m
from ...model.board import Direction
from ...model.puzzle import EMPTY, FillForm, FillVar, Move, Puzzle
from ..evaluate import Evaluator, one_group, steps_table
from ..layout import StateLayout
from ..safety import Safety
from .base import Change, MoveIds, Successor
from .fixed_filters import resolve_fixed_filters

ALL = None  # an instance that may read anything of the state


class Inexpressible(Exception):
    """A rule a model of the filling (a constraint solver's, the kernel's) cannot say: where,
    and what."""

    def __init__(self, pos: Pos, what: str):
        super().__init__(what)
        self.pos = pos
        self.what = what

    def reason(self, source: str, who: str = "the constraint solver") -> str:
        lines = source.split("\n")
        where = f"line {self.pos.line}, column {self.pos.column}"
        if 1 <= self.pos.line <= len(lines) and self.pos.width > 1:
            text = lines[self.pos.line - 1][self.pos.column - 1 : self.pos.column - 1 + self.pos.width]
            if text.isprintable():
                where = f"`{text}` ({where})"
        return f"{who} cannot say {self.what}: {where}"


class OffBoard(Inexpressible):
    """`next(x, d)` of a cell and a direction known before the search, off the board: no cell
    (of no kind, not empty, with no number)."""


@dataclass(frozen=True)
class Instance:
    """A piece of a rule, with the values of the variables it was cut along."""

    check: Callable[[Any, list[Any]], Any]
    env: tuple[Any, ...]
    reads: frozenset[tuple[str, int]] | None  # ("cell", c) / ("counter", k); None: anything
    partial: bool  # an `all different` of cells: checked whenever one of its cells is decided
    rule: int  # its rule's place among the puzzle's rules
    different: tuple[tuple[str, int], ...] | None  # an `all different` of these things
    expr: m.Expr = field(compare=False)  # the piece itself, and the variables' values
    bound: dict[int, Any] = field(compare=False)

    def holds(self, state: Any) -> bool:
        return bool(self.check(state, list(self.env)))


@dataclass(frozen=True)
class Check:
    """An instance as the fill search reads it (`search.fill.Check`): the things it reads, by
    their place in the filling."""

    instance: Instance
    reads: tuple[int, ...] | None
    partial: bool
    distinct: tuple[int, ...] | None
    open_test: Callable[[bytes, set[int]], bool] | None = None  # connected(...): see `holds_open`
    cells: tuple[int | None, ...] = ()  # each thing's cell

    def holds(self, state: bytes) -> bool:
        return self.instance.holds(state)

    def holds_open(self, state: bytes, open_things: list[int]) -> bool:
        """Whether some way of deciding the open things may still keep it (False: none can)."""
        if self.open_test is None:
            return True
        return self.open_test(state, {c for t in open_things if (c := self.cells[t]) is not None})


def open_connectivity(
    instance: Instance, puzzle: Puzzle, evaluator: Evaluator
) -> Callable[[bytes, set[int]], bool] | None:
    """For `connected(c for c in CELLS if COND)` where COND reads the member's own cell alone:
    a test of a partial filling that fails only where no filling of the open cells can keep
    it. The cells that must be chosen (decided, COND holding) have to lie in one group of the
    cells that may be (those and the open ones): choosing among the open ones only removes
    cells from the latter. None where the rule is not of that form."""
    expr, bound = instance.expr, instance.bound
    if not isinstance(expr, m.Connected) or not (isinstance(expr.value, m.Local) and expr.value.slot == expr.slot):
        return None
    domain = expr.domain
    whole = isinstance(domain, m.CellsDomain) and domain.cells is None and domain.line is None
    members = list(range(puzzle.cell_count)) if whole else fixed_members(domain, bound)
    if members is None or not all(isinstance(c, int) for c in members):
        return None
    cond = expr.condition
    if cond is not None:
        for cell in members:
            reads = _reads(cond, {**bound, expr.slot: cell}, puzzle)
            if reads is None or not reads <= {("cell", cell)}:
                return None
    test = evaluator.function(cond) if cond is not None else None
    slot, env = expr.slot, list(instance.env)
    near = steps_table(expr.directions, puzzle.cell_count)
    cells = tuple(dict.fromkeys(members))

    def may_keep(state: bytes, open_cells: set[int]) -> bool:
        must: list[int] = []
        for cell in cells:
            if cell in open_cells:
                continue
            env[slot] = cell
            if test is None or test(state, env):
                must.append(cell)
        return one_group(must, near, open_cells.union(must))

    return may_keep


class FillFamily:
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
        assert isinstance(form, FillForm)
        self.index, self.move, self.ids, self.safety, self.layout = index, move, ids, safety, layout
        self.vars: tuple[FillVar, ...] = form.vars
        self.progress = form.progress
        self.read_progress = layout.reader(form.progress)
        self.invertible = False
        self.start = puzzle.start
        self.base = [part.piece for part in puzzle.parts]  # by code: the piece an `all different` compares
        self.instances = list(rule_instances(puzzle, evaluator))
        self.puzzle, self.evaluator = puzzle, evaluator
        self.position = position = {_thing(v): i for i, v in enumerate(self.vars)}
        self.checked_at: list[list[Instance]] = [[] for _ in self.vars]
        for instance in self.instances:
            for k in _when(instance, position, len(self.vars)):
                self.checked_at[k].append(instance)

    def expand(self, state: bytes) -> list[Successor]:
        return [(child, number) for child, number, _ in self._children(state)]

    def expand_costed(self, state: bytes) -> list[tuple[bytes, int, int]]:
        return [(child, number, 1) for child, number, _ in self._children(state)]

    def expand_back(self, state: bytes) -> list[Successor]:
        raise AssertionError("a filling's moves are not undone")

    def _children(self, state: bytes) -> Iterator[tuple[bytes, int, int]]:
        k = self.read_progress(state)
        if k >= len(self.vars):
            return
        var = self.vars[k]
        checks = self.checked_at[k]
        for i, value in enumerate(var.values):
            child = self.decided(state, k, value)
            if all(c.holds(child) for c in checks) and self.safety.ok(child):
                yield child, self.ids.number((self.index, k, i)), value

    def decided(self, state: bytes, k: int, value: int) -> bytes:
        """The state with the k-th thing set to `value`, and k + 1 things decided."""
        child = bytearray(self.set_thing(state, k, value))
        self.layout.write_counter(child, self.progress, k + 1)
        return bytes(child)

    def set_thing(self, state: bytes, k: int, value: int) -> bytes:
        """The state with the k-th thing set to `value` (the progress left as it is)."""
        child = bytearray(state)
        var = self.vars[k]
        if var.cell is not None:
            child[var.cell] = value
        else:
            assert var.counter is not None
            self.layout.write_counter(child, var.counter, value)
        return bytes(child)

    # ---- the filling as the fill search reads it (search.fill.FillProblem)
    def problem(self, start: bytes) -> FillProblem:
        return FillProblem(self, start)

    def change(self, key: tuple[Any, ...], before: bytes, puzzle: Puzzle) -> Change:
        _, k, i = key
        var = self.vars[k]
        if var.cell is None or puzzle.board is None:
            return Change(())
        value = var.values[i]
        symbol = puzzle.symbol(value)
        return Change(((symbol, None, puzzle.board.name(var.cell)),) if value else ())

    def start_cell(self, key: tuple[Any, ...]) -> int | None:
        cell: int | None = self.vars[key[1]].cell
        return cell

    def anchor_of(self, key: tuple[Any, ...]) -> int | None:
        return None


class FillProblem:
    """A filling as the fill search (`search.fill`) takes it: the things to decide with their
    values, and the rules' instances as checks on the things they read."""

    def __init__(self, family: FillFamily, start: bytes):
        self.family = family
        self.start = start
        position = family.position
        self._checks = []
        for instance in family.instances:
            reads = (
                None if instance.reads is None else tuple(sorted(position[r] for r in instance.reads if r in position))
            )
            distinct = None
            if instance.different is not None and all(r in position or not _open(r, start) for r in instance.different):
                distinct = tuple(position[r] for r in instance.different if r in position)
            open_test = open_connectivity(instance, family.puzzle, family.evaluator)
            cells = tuple(v.cell for v in family.vars)
            self._checks.append(Check(instance, reads, instance.partial, distinct, open_test, cells))

    @property
    def things(self) -> int:
        return len(self.family.vars)

    def values(self, k: int) -> tuple[int, ...]:
        return self.family.vars[k].values

    def given(self) -> dict[int, set[int]]:
        out: dict[int, set[int]] = {}
        for check in self._checks:
            different = check.instance.different
            if check.distinct is None or different is None:
                continue
            family = self.family
            taken = {
                family.base[self.start[c]]
                for kind, c in different
                if kind == "cell" and (kind, c) not in family.position and self.start[c] != EMPTY
            }
            for k in check.distinct:
                out.setdefault(k, set()).update(v for v in family.vars[k].values if self.key(k, v) in taken)
        return out

    def key(self, k: int, value: int) -> int | None:
        if self.family.vars[k].cell is None:
            return value
        return None if value == EMPTY else self.family.base[value]

    def decided(self, state: bytes, k: int, value: int) -> bytes:
        return self.family.set_thing(state, k, value)

    def safe(self, state: bytes, k: int) -> bool:
        """Whether the safety rules hold once things 0..k are decided (and no other): the
        state the walk reaches there, its progress at k + 1."""
        family = self.family
        if not family.safety.anything:
            return True
        walked = bytearray(state)
        family.layout.write_counter(walked, family.progress, k + 1)
        return bool(family.safety.ok(bytes(walked)))

    def checks(self) -> list[Check]:
        return self._checks

    def final(self, values: list[int]) -> list[tuple[int, bytes]]:
        """A filling as the last step of its path alone (the last decision, and the complete
        filling): what a caller that shows only the boards needs, made in one copy."""
        family = self.family
        state = bytearray(self.start)
        for var, value in zip(family.vars, values, strict=True):
            if var.cell is not None:
                state[var.cell] = value
            else:
                assert var.counter is not None
                family.layout.write_counter(state, var.counter, value)
        family.layout.write_counter(state, family.progress, len(values))
        k = len(values) - 1
        last = family.ids.number((family.index, k, family.vars[k].values.index(values[k])))
        return [(last, bytes(state))]

    def path(self, values: list[int]) -> list[tuple[int, bytes]]:
        family, state, out = self.family, self.start, []
        for k, value in enumerate(values):
            state = family.decided(state, k, value)
            out.append((family.ids.number((family.index, k, family.vars[k].values.index(value))), state))
        return out


def _open(thing: tuple[str, int], start: bytes) -> bool:
    """A cell the start leaves empty (a counter is never given)."""
    kind, at = thing
    return kind == "counter" or start[at] == 0


def _thing(var: FillVar) -> tuple[str, int]:
    return ("cell", var.cell) if var.cell is not None else ("counter", var.counter)  # type: ignore[return-value]


def _when(instance: Instance, position: dict[tuple[str, int], int], total: int) -> list[int]:
    """The moves (decisions, by place) that check an instance: the one that decides the last
    thing it reads (the first move, where it reads nothing open), and, for a partial one,
    every move that decides a thing it reads."""
    if instance.reads is ALL:
        return [total - 1]
    places = sorted(position[r] for r in instance.reads if r in position)
    if not places:
        return [0]
    return places if instance.partial else [places[-1]]


# ---- rules cut into instances


def rule_cuts(puzzle: Puzzle) -> Iterator[tuple[m.Expr, dict[int, Any]]]:
    """Every rule cut into pieces: each piece, with the values of the variables it was cut along."""
    for rule in puzzle.rules:
        for expr, bound in _cut(rule.condition, {}, puzzle.cell_count):
            yield resolve_fixed_filters(expr, bound, puzzle), bound


def rule_instances(puzzle: Puzzle, evaluator: Evaluator) -> Iterator[Instance]:
    for number, rule in enumerate(puzzle.rules):
        for cut, bound in _cut(rule.condition, {}, puzzle.cell_count):
            expr = resolve_fixed_filters(cut, bound, puzzle)
            env = [None] * max(2, rule.slots)
            for slot, value in bound.items():
                env[slot] = value
            reads = _reads(expr, bound, puzzle)
            partial = isinstance(expr, m.AllDifferent) and expr.domain is not None
            yield Instance(
                evaluator.function(expr), tuple(env), reads, partial, number, _different(expr, reads), expr, bound
            )


def _different(expr: m.Expr, reads: frozenset[tuple[str, int]] | None) -> tuple[tuple[str, int], ...] | None:
    """The things an `all different` compares (cells, or counters read as they are)."""
    if not isinstance(expr, m.AllDifferent) or reads is None:
        return None
    if expr.domain is not None:
        return tuple(sorted(r for r in reads if r[0] == "cell"))
    if all(isinstance(item, m.CounterValue) for item in expr.items):
        return tuple(("counter", int(item.counter)) for item in expr.items)  # type: ignore[union-attr,arg-type]
    return None


def _cut(expr: m.Expr, bound: dict[int, Any], cell_count: int) -> Iterator[tuple[m.Expr, dict[int, Any]]]:
    """A condition as the conjunction of smaller ones: `A and B`, `every v in FIXED: B(v)`,
    `no v in FIXED: B(v)` (as `not B(v)` for each v; `cells`, every cell of the board, is
    fixed too: "every a in cells: every b in cells: ..." is a piece for each pair, checked
    as soon as its two cells are decided)."""
    if isinstance(expr, m.Binary) and expr.op == "and":
        yield from _cut(expr.left, bound, cell_count)
        yield from _cut(expr.right, bound, cell_count)
        return
    if isinstance(expr, m.Quantified) and expr.quantifier in ("every", "no"):
        domain = expr.domain
        whole_board = isinstance(domain, m.CellsDomain) and domain.cells is None and domain.line is None
        values = list(range(cell_count)) if whole_board else fixed_members(domain, bound)
        if values is not None:
            for value in values:
                body = expr.body if expr.quantifier == "every" else m.Unary(expr.pos, "not", expr.body, m.BOOL)
                yield from _cut(body, {**bound, expr.slot: value}, cell_count)
            return
    yield expr, bound


def known_cell(expr: m.Expr, bound: dict[int, Any]) -> int:
    """The cell a cell (or the piece on it) names, known before the search (else Inexpressible)."""
    if isinstance(expr, m.CellConst):
        return expr.cell
    if isinstance(expr, m.Content):
        return known_cell(expr.cell, bound)
    if isinstance(expr, m.CellOf):
        return known_cell(expr.piece, bound)
    if isinstance(expr, m.Local) and isinstance(bound.get(expr.slot), int) and expr.type in (m.CELL, m.PIECE):
        return int(bound[expr.slot])
    if isinstance(expr, m.Call) and expr.name == "nowhere":  # fill_terms: holding(v) where no cell holds v
        raise Inexpressible(expr.pos, "the cell holding a number where no cell may hold it")
    if isinstance(expr, m.Call) and expr.name == "next":
        found = known_direction(expr.args[1], bound).next(known_cell(expr.args[0], bound))
        if found is None:
            raise OffBoard(expr.pos, "the number of a cell off the board")
        return found
    raise Inexpressible(expr.pos, "a cell that is only known during the search")


def known_direction(expr: m.Expr, bound: dict[int, Any]) -> Direction:
    """The direction, known before the search (else Inexpressible)."""
    if isinstance(expr, m.DirectionConst):
        return expr.direction
    if isinstance(expr, m.Local) and isinstance(bound.get(expr.slot), Direction):
        found: Direction = bound[expr.slot]
        return found
    raise Inexpressible(expr.pos, "a direction that is only known during the search")


def known_members(domain: m.Domain, bound: dict[int, Any], pos: Pos, cell_count: int) -> list[Any]:
    """The members of a collection known before the search (else Inexpressible)."""
    if isinstance(domain, m.CellsDomain) and domain.cells is None and domain.line is None:
        return list(range(cell_count))
    found = fixed_members(domain, bound)
    if found is None:
        raise Inexpressible(pos, "a collection that is only known during the search")
    return found


def known_cells(domain: m.Domain, bound: dict[int, Any], pos: Pos, cell_count: int) -> list[int]:
    """The cells of a collection of cells or lines known before the search."""
    values = known_members(domain, bound, pos, cell_count)
    return [v for value in values for v in (value if isinstance(value, tuple) else (value,))]


def fixed_members(domain: m.Domain, bound: dict[int, Any]) -> list[Any] | None:
    """The values of a collection known before the search (None: it depends on the state)."""
    if isinstance(domain, m.LinesDomain):
        return list(domain.lines)
    if isinstance(domain, m.CellsDomain):
        if domain.cells is not None:
            return list(domain.cells)
        if isinstance(domain.line, m.Local) and domain.line.slot in bound:
            return list(bound[domain.line.slot])
        return None
    if isinstance(domain, m.NumbersDomain):
        return list(domain.values.values) if isinstance(domain.values, m.ListConst) else None
    if isinstance(domain, m.PlacesDomain):
        return list(domain.places)
    if isinstance(domain, m.NeighboursDomain):
        try:
            origin = known_cell(domain.origin, bound)
        except Inexpressible:
            return None
        return [c for c in dict.fromkeys(x.next(origin) for x in domain.directions) if c is not None]
    if isinstance(domain, m.DirectionsDomain):
        return list(domain.directions)
    if isinstance(domain, m.UnionDomain):
        parts = [fixed_members(p, bound) for p in domain.parts]
        return None if any(p is None for p in parts) else [v for p in parts for v in p]  # type: ignore[union-attr]
    return None


def _reads(expr: m.Expr, bound: dict[int, Any], puzzle: Puzzle) -> frozenset[tuple[str, int]] | None:
    """The cells and counters an expression may read (None: anything), with the variables of
    `bound` known."""
    found: set[tuple[str, int]] = set()
    every_cell = {("cell", c) for c in range(puzzle.cell_count)}

    def cells(domain: m.Domain) -> bool:
        if isinstance(domain, (m.KindDomain, m.FilteredDomain)):
            inner = domain.inner if isinstance(domain, m.FilteredDomain) else domain
            if isinstance(inner, m.KindDomain) and inner.where is None and not puzzle.places:
                found.update(every_cell)
                return True
            if isinstance(inner, (m.CellsDomain, m.LinesDomain, m.UnionDomain)):
                return cells(inner)
            return False
        values = fixed_members(domain, bound)
        if isinstance(domain, (m.CellsDomain, m.LinesDomain, m.NeighboursDomain)) and values is not None:
            for value in values:
                found.update(("cell", c) for c in (value if isinstance(value, tuple) else (value,)))
            return True
        if isinstance(domain, m.CellsDomain) and domain.cells is None and domain.line is None:
            found.update(every_cell)
            return True
        if isinstance(domain, m.UnionDomain):
            return all(cells(p) for p in domain.parts)
        return isinstance(domain, (m.NumbersDomain, m.PlacesDomain, m.DirectionsDomain)) and values is not None

    def walk(e: m.Expr, inner: frozenset[int]) -> bool:
        """Adds what `e` reads; False where it may read anything. `inner`: the slots of the
        quantifiers around `e`, whose values lie in collections already counted."""
        if isinstance(e, m.CellConst):
            found.add(("cell", e.cell))
        elif isinstance(e, m.CounterValue):
            found.add(("counter", e.counter))
        elif isinstance(e, m.Call) and e.name == "next" and _known_next(e, bound):
            found.add(("cell", known_cell(e, bound)))
            return walk(e.args[0], inner)
        elif isinstance(e, (m.CounterRead, m.CellAt, m.PieceConst, m.Here, m.IsAt)) or (
            isinstance(e, m.Call) and e.name in ("first", "next", "top", "together")
        ):
            return False
        elif isinstance(e, m.Call) and e.name in ("inversions", "displacement", "misplaced", "holding"):
            found.update(every_cell)
        elif isinstance(e, (m.Quantified, m.Aggregate, m.Product, m.Connected)):
            if not cells(e.domain):
                return False
            inner = inner | {e.slot}
        elif isinstance(e, (m.Runs, m.AllDifferent)) and e.domain is not None and not cells(e.domain):
            return False
        elif isinstance(e, m.Local) and e.slot in inner:
            pass
        elif isinstance(e, m.Local) and e.type == m.CELL and e.slot in bound:
            found.add(("cell", bound[e.slot]))
        elif isinstance(e, m.Local) and e.type in (m.CELL, m.PIECE):
            return False
        return all(walk(c, inner) for c in m.children(e) if not _is_domain_part(e, c))

    if not walk(expr, frozenset()):
        return None
    return frozenset(found)


def _known_next(e: m.Call, bound: dict[int, Any]) -> bool:
    """`next(x, d)` of a cell and a direction known before the search, onto the board."""
    try:
        known_cell(e, bound)
    except Inexpressible:
        return False
    return True


def _is_domain_part(parent: m.Expr, child: m.Expr) -> bool:
    """A child of a quantifier or an aggregate that belongs to its collection (read by
    `cells` already)."""
    domain = getattr(parent, "domain", None)
    return domain is not None and child in m.domain_children(domain)
