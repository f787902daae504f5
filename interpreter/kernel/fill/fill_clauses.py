"""Conditions of a filling's rules as clauses: "at least one of these things takes one of
these values", each a linear constraint (a sum of indicators at least 1) that the kernel's
fill search propagates like any other.

A condition made of conditions on one thing each (`c is queen`, `c is empty`, `c.value > 3`),
joined by `and`, `or`, `not`, quantifiers over fixed collections (lines, cells, directions,
ranges), a quantifier over the pieces of a kind (one member per cell that may hold one), and
`first(x, d) is K` (some cell of the ray holds a K and every cell before it is empty), is a
formula of such literals; negations are pushed down to the literals, and the formula is
multiplied out into clauses. "No queen sees another", `no queen q: some d in king:
first(q, d) is queen`, becomes one clause for each cell, direction and distance: that cell
holds no queen, or a cell between is not empty, or the cell at that distance holds no queen.

A formula that would multiply out into more than CLAUSES_MOST clauses is refused (the next
engine answers it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...compiler.families.fill import Inexpressible
from ...model import expr as m

CLAUSES_MOST = 50_000


@dataclass(frozen=True)
class Lit:
    """Thing `thing` takes one of the values (by index) `values`."""

    thing: int
    values: frozenset[int]


@dataclass(frozen=True)
class And:
    parts: tuple[Formula, ...]


@dataclass(frozen=True)
class Or:
    parts: tuple[Formula, ...]


Formula = bool | Lit | And | Or
Clause = dict[int, frozenset[int]]  # thing -> the values that satisfy the clause


def negate(formula: Formula, sizes: list[int]) -> Formula:
    if isinstance(formula, bool):
        return not formula
    if isinstance(formula, Lit):
        return Lit(formula.thing, frozenset(range(sizes[formula.thing])) - formula.values)
    if isinstance(formula, And):
        return Or(tuple(negate(p, sizes) for p in formula.parts))
    return And(tuple(negate(p, sizes) for p in formula.parts))


def clauses(formula: Formula, sizes: list[int], at: m.Expr) -> list[Clause] | None:
    """The formula as clauses, all of which hold exactly when it does (None: it always
    holds; an empty clause: it never does)."""
    found = _cnf(formula, sizes, at)
    return None if found is None else [c for c in found if not _always(c, sizes)]


def _cnf(formula: Formula, sizes: list[int], at: m.Expr) -> list[Clause] | None:
    if formula is True:
        return None
    if formula is False:
        return [{}]
    if isinstance(formula, Lit):
        return [{formula.thing: formula.values}]
    if isinstance(formula, And):
        out: list[Clause] = []
        for part in formula.parts:
            found = _cnf(part, sizes, at)
            if found is not None:
                out.extend(found)
                _cap(out, at)
        return out or None
    product: list[Clause] = [{}]
    for part in formula.parts:  # type: ignore[union-attr]
        found = _cnf(part, sizes, at)
        if found is None:
            return None
        product = [_join(a, b) for a in product for b in found]
        product = [c for c in product if not _always(c, sizes)]
        _cap(product, at)
        if not product:
            return None
    return product


def _join(a: Clause, b: Clause) -> Clause:
    out = dict(a)
    for thing, values in b.items():
        out[thing] = out.get(thing, frozenset()) | values
    return out


def _always(clause: Clause, sizes: list[int]) -> bool:
    return any(len(values) == sizes[thing] for thing, values in clause.items())


def _cap(found: list[Clause], at: m.Expr) -> None:
    if len(found) > CLAUSES_MOST:
        raise Inexpressible(at.pos, f"a condition of more than {CLAUSES_MOST:,} clauses")


class Formulas:
    """Conditions as formulas of literals, for a translation that knows the things."""

    def __init__(
        self,
        indicator: Callable[[m.Expr, dict[int, Any]], tuple[int, list[int]] | bool],
        cell_of: Callable[[m.Expr, dict[int, Any]], int],
        members: Callable[[m.Domain, dict[int, Any], Any], list[Any]],
        sizes: list[int],
        cells: int,
        places: bool,
    ):
        self.indicator, self.cell_of, self.members = indicator, cell_of, members
        self.sizes, self.cells, self.places = sizes, cells, places

    def of(self, expr: m.Expr, bound: dict[int, Any]) -> Formula:
        if isinstance(expr, m.Const) and isinstance(expr.value, bool):
            return expr.value
        if isinstance(expr, m.Unary) and expr.op == "not":
            return negate(self.of(expr.operand, bound), self.sizes)
        if isinstance(expr, m.Binary) and expr.op in ("and", "or"):
            parts = (self.of(expr.left, bound), self.of(expr.right, bound))
            return _simplified(And(parts) if expr.op == "and" else Or(parts))
        if isinstance(expr, m.IsKind) and isinstance(expr.piece, m.Call) and expr.piece.name == "first":
            return self._first_is(expr.piece, expr, bound)
        if isinstance(expr, m.Quantified):
            return self._quantified(expr, bound)
        known = self.indicator(expr, bound)
        if isinstance(known, bool):
            return known
        return Lit(known[0], frozenset(known[1]))

    def _first_is(self, call: m.Call, test: m.IsKind, bound: dict[int, Any]) -> Formula:
        """Some cell of the ray holds a K, every cell before it empty."""
        origin, direction = call.args
        cell = self.cell_of(origin, bound)
        if isinstance(direction, m.DirectionConst):
            way = direction.direction
        elif isinstance(direction, m.Local) and direction.slot in bound:
            way = bound[direction.slot]
        else:
            raise Inexpressible(direction.pos, "a direction that is only known during the search")
        options: list[Formula] = []
        before: list[Formula] = []
        for target in way.ray(cell):
            here = self.of(m.IsKind(test.pos, m.CellConst(test.pos, target), test.codes), bound)
            options.append(_simplified(And((*before, here))))
            before.append(self.of(m.IsEmpty(test.pos, m.CellConst(test.pos, target)), bound))
        return _simplified(Or(tuple(options)))

    def _quantified(self, expr: m.Quantified, bound: dict[int, Any]) -> Formula:
        domain = expr.domain
        bodies: list[Formula] = []
        if isinstance(domain, m.KindDomain) and domain.where is None and not self.places:
            for cell in range(self.cells):
                member = self.of(m.IsKind(expr.pos, m.CellConst(expr.pos, cell), domain.codes), bound)
                if member is False:
                    continue
                body = self.of(expr.body, {**bound, expr.slot: cell})
                if expr.quantifier == "every":
                    bodies.append(_simplified(Or((negate(member, self.sizes), body))))
                else:
                    bodies.append(_simplified(And((member, body))))
        else:
            for value in self.members(domain, bound, expr.pos):
                bodies.append(self.of(expr.body, {**bound, expr.slot: value}))
        if expr.quantifier == "every":
            return _simplified(And(tuple(bodies)))
        some = _simplified(Or(tuple(bodies)))
        return some if expr.quantifier == "some" else negate(some, self.sizes)


def _simplified(formula: And | Or) -> Formula:
    """Constants folded, nested alike joined."""
    absorbing = isinstance(formula, Or)  # True absorbs an `or`, False an `and`
    parts: list[Formula] = []
    for part in formula.parts:
        if isinstance(part, bool):
            if part is absorbing:
                return absorbing
            continue
        if type(part) is type(formula):
            parts.extend(part.parts)  # type: ignore[union-attr]
        else:
            parts.append(part)
    if not parts:
        return not absorbing
    if len(parts) == 1:
        return parts[0]
    return type(formula)(tuple(parts))
