"""A filling as the kernel's fill search takes it (`kernel.fill`): each open thing a
variable whose values are the bits of a word, and every piece of every rule either a
*linear* constraint over the things' values, an `all different` of things, or a *table* of
the value combinations it allows.

Linear, because most rules of logic puzzles are: a sum of terms, each one thing's
contribution for each of its values, between two bounds. `count(c in l if c is queen) == 1`
is one term per cell of the line (1 for a queen, 0 for empty); `sum(c.value for c in l) ==
15` has each cell's number as its contribution; `1000*S + 100*E + ... == ...` one term per
counter, its coefficient times each value. A clause, "at least one of these things takes
one of these values", is linear too: any condition of conditions on one thing each, joined
by `and`, `or`, `not`, quantifiers and `first(x, d) is K`, is a set of clauses
(`kernel.fill.fill_clauses`). Bounds propagation decides them all: the least and the most a
sum can still be tell which values can no longer fit.

`all different` is a constraint of its own: a thing decided takes its piece (or number) from
the others, at once, as bits of a word (as "at most one holds each piece", one linear
constraint per piece, every decision would revisit them all).

A piece that is not linear (`a.value != b.value`, a product of two things) is tabulated where the
things it reads have few combinations (at most TABLE_MOST): the piece itself, evaluated by
the compiler's evaluator on each combination, says which hold. Anything else (a piece that
reads anything, or too many combinations, or a value past 62 bits) is refused with its
position, and another engine answers.

Nothing from the spec becomes code: the model is integer arrays.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...compiler import CompiledPuzzle
from ...compiler.families.fill import FillFamily, Inexpressible, Instance, known_cell, known_cells, known_members
from ...compiler.ranges import KERNEL_BOUND
from ...errors import NOWHERE, Pos
from ...model import expr as m
from ...model.puzzle import EMPTY
from .fill_clauses import Formulas, clauses

TABLE_MOST = 4096  # combinations a tabulated piece may have
WORD = 62  # values a thing may have: bits of a word that stays positive
SAFE = KERNEL_BOUND  # a sum that may pass this is refused: the kernel's words hold 64 bits

Coefs = dict[int, list[int]]  # thing -> its contribution for each of its values


@dataclass
class Linear:
    """lo <= sum of each thing's contribution <= hi."""

    terms: Coefs
    lo: int
    hi: int
    pos: Pos  # the piece of the rule it says


@dataclass
class Distinct:
    """No two of the things take values of the same key (a piece, a number: numbered from 0);
    the keys of `taken` none of them takes. A key of -1 is no key (an empty cell)."""

    keys: dict[int, list[int]]  # thing -> the key of each of its values
    taken: int  # bits: the keys given by the start


@dataclass
class Table:
    """The value combinations (indices, the first thing's fastest) that a piece allows."""

    things: tuple[int, ...]
    allowed: np.ndarray  # uint8, one per combination


class Sum:
    """A number as a sum of the things' contributions and a constant."""

    def __init__(self, terms: Coefs | None = None, constant: int = 0):
        self.terms: Coefs = terms or {}
        self.constant = constant

    def plus(self, other: Sum, sign: int = 1) -> Sum:
        terms = {k: list(v) for k, v in self.terms.items()}
        for k, coefs in other.terms.items():
            mine = terms.setdefault(k, [0] * len(coefs))
            terms[k] = [a + sign * b for a, b in zip(mine, coefs, strict=True)]
        return Sum(terms, self.constant + sign * other.constant)

    def times(self, factor: int) -> Sum:
        return Sum({k: [factor * c for c in v] for k, v in self.terms.items()}, self.constant * factor)

    @property
    def known(self) -> bool:
        return not self.terms


@dataclass
class FillModel:
    """The arrays of `kernel.fill`: per thing, its values; the constraints, linear and tabulated."""

    values: list[tuple[int, ...]]
    linear: list[Linear]
    distinct: list[Distinct]
    tables: list[Table]


class Translation:
    """The pieces of a filling's rules (`FillFamily.instances`) as linear constraints and tables."""

    def __init__(self, compiled: CompiledPuzzle, family: FillFamily):
        self.compiled, self.family = compiled, family
        puzzle = compiled.puzzle
        self.puzzle = puzzle
        self.start = compiled.layout.decode(compiled.start)
        self.piece_value: list[int | None] = [None, *(p.value for p in puzzle.pieces)]  # by code
        self.base = [part.piece for part in puzzle.parts]
        self.position = family.position
        self.values = [var.values for var in family.vars]
        self.linear: list[Linear] = []
        self.distinct: list[Distinct] = []
        self.tables: list[Table] = []
        self.at: Pos = NOWHERE
        self.sizes = [len(v) for v in self.values]
        self.formulas = Formulas(
            self.indicator, self.cell_of, self._members, self.sizes, puzzle.cell_count, bool(puzzle.places)
        )

    def model(self) -> FillModel:
        for k, values in enumerate(self.values):
            if len(values) > WORD:
                raise Inexpressible(self.family.vars[k].pos, f"a thing of more than {WORD} values")
        for instance in self.family.instances:
            self.at = instance.expr.pos
            try:
                self.require(instance.expr, instance.bound)
            except Inexpressible as exc:
                self.tabulate(instance, exc)
        for constraint in self.linear:  # the least and the most each sum can be, exactly, in Python's integers
            reach = sum(max(abs(c) for c in coefs) for coefs in constraint.terms.values())
            bounds = [abs(b) for b in (constraint.lo, constraint.hi) if abs(b) < SAFE]
            if reach + max(bounds, default=0) >= SAFE:
                raise Inexpressible(
                    constraint.pos,
                    f"a sum that may reach {reach + max(bounds, default=0):,} (its words take values below "
                    f"2**{SAFE.bit_length() - 1}; the Python engine has no bound)",
                )
        return FillModel(list(self.values), self.linear, self.distinct, self.tables)

    # ---- what cannot be said linearly: a table of its combinations
    def tabulate(self, instance: Instance, why: Inexpressible) -> None:
        if instance.reads is None:
            raise Inexpressible(instance.expr.pos, "a rule that may read anything of the filling")
        things = tuple(sorted(self.position[r] for r in instance.reads if r in self.position))
        sizes = [len(self.values[k]) for k in things]
        total = math.prod(sizes)  # Python's integers: the count of combinations never wraps
        if total > TABLE_MOST:
            many = f"{total:,}" if total < 10**15 else f"more than 10**{len(str(total)) - 1}"
            raise Inexpressible(
                why.pos, f"{why.what} over {len(things)} things ({many} combinations, more than {TABLE_MOST:,})"
            )
        allowed = np.zeros(total, dtype=np.uint8)
        state = bytes(self.compiled.start)
        for index in range(total):
            rest, chosen = index, state
            for k, size in zip(things, sizes, strict=True):
                chosen = self.family.set_thing(chosen, k, self.values[k][rest % size])
                rest //= size
            allowed[index] = instance.holds(chosen)
        self.tables.append(Table(things, allowed))

    # ---- linear constraints
    def require(self, expr: m.Expr, bound: dict[int, Any]) -> None:
        if isinstance(expr, m.Binary) and expr.op in BOUNDS and expr.left.type == m.NUM:
            difference = self.number(expr.left, bound).plus(self.number(expr.right, bound), -1)
            low, high = BOUNDS[expr.op]
            shift = difference.constant
            self.add(difference.terms, -SAFE if low is None else low - shift, SAFE if high is None else high - shift)
            return
        if isinstance(expr, m.AllDifferent):
            self._all_different(expr, bound)
            return
        found = clauses(self.formulas.of(expr, bound), self.sizes, expr)
        for clause in found or ():  # each: at least one of its things takes one of its values
            terms = {k: [int(i in chosen) for i in range(self.sizes[k])] for k, chosen in clause.items()}
            self.add(terms, 1, SAFE)

    def add(self, terms: Coefs, lo: int, hi: int) -> None:
        self.linear.append(Linear({k: c for k, c in terms.items() if any(c)}, max(lo, -SAFE), min(hi, SAFE), self.at))

    def _all_different(self, expr: m.AllDifferent, bound: dict[int, Any]) -> None:
        """No two of the things hold the same piece (or number); what the start gives takes
        its piece (number) from all of them."""
        keyed: dict[int, list[int | None]] = {}  # thing -> its key for each value (None: empty)
        given: list[int] = []
        if expr.domain is not None:
            for cell in dict.fromkeys(self.cells_of(expr.domain, bound, expr.pos)):
                k = self.position.get(("cell", cell))
                if k is None:
                    if self.start.cells[cell] != EMPTY:
                        given.append(self.base[self.start.cells[cell]])
                    continue
                keyed[k] = [None if code == EMPTY else self.base[code] for code in self.values[k]]
        else:
            for item in expr.items:
                number = self.number(item, bound)
                if number.known:
                    given.append(number.constant)
                    continue
                if len(number.terms) != 1 or number.constant:
                    raise Inexpressible(expr.pos, "`all different` of numbers that are not each one thing's")
                ((k, coefs),) = number.terms.items()
                if k in keyed:
                    raise Inexpressible(expr.pos, "`all different` of one thing twice")
                keyed[k] = list(coefs)
        if len(set(given)) < len(given):
            self.add({}, 1, 0)  # two givens alike: no filling keeps the rule
            return
        names = sorted({key for keys in keyed.values() for key in keys if key is not None} | set(given))
        if len(names) <= WORD:
            bit = {key: i for i, key in enumerate(names)}
            self.distinct.append(
                Distinct(
                    {k: [-1 if key is None else bit[key] for key in keys] for k, keys in keyed.items()},
                    sum(1 << bit[key] for key in given),
                )
            )
            return
        for key in names:  # too many to be the bits of a word: "at most one holds it", for each
            terms = {k: [int(x == key) for x in keys] for k, keys in keyed.items() if key in keys}
            self.add(terms, -SAFE, 1 - given.count(key))

    def indicator(self, expr: m.Expr, bound: dict[int, Any]) -> tuple[int, list[int]] | bool:
        """A condition on one thing: the thing and the indices of its values where it holds."""
        if isinstance(expr, m.Const) and isinstance(expr.value, bool):
            return expr.value
        if isinstance(expr, m.Unary) and expr.op == "not":
            inner = self.indicator(expr.operand, bound)
            if isinstance(inner, bool):
                return not inner
            k, chosen = inner
            return k, [i for i in range(len(self.values[k])) if i not in chosen]
        if isinstance(expr, m.Binary) and expr.op in COMPARE and expr.left.type == m.NUM:
            difference = self.number(expr.left, bound).plus(self.number(expr.right, bound), -1)
            test = COMPARE[expr.op]
            if difference.known:
                return test(difference.constant)
            if len(difference.terms) > 1:
                raise Inexpressible(expr.pos, "this condition")
            ((only, coefs),) = difference.terms.items()
            return only, [i for i, c in enumerate(coefs) if test(c + difference.constant)]
        if isinstance(expr, (m.IsKind, m.IsEmpty)):
            target = expr.piece if isinstance(expr, m.IsKind) else expr.operand
            if isinstance(expr, m.IsEmpty) and target.type not in (m.CELL, m.PIECE):
                raise Inexpressible(expr.pos, "this condition")
            codes = expr.codes if isinstance(expr, m.IsKind) else frozenset([EMPTY])
            empty = isinstance(expr, m.IsEmpty)
            cell = self.cell_of(target, bound)
            thing = self.position.get(("cell", cell))
            if thing is None:
                return self._holds(self.start.cells[cell], codes, empty)
            return thing, [i for i, code in enumerate(self.values[thing]) if self._holds(code, codes, empty)]
        raise Inexpressible(expr.pos, "this condition")

    def _holds(self, code: int, codes: frozenset[int], empty: bool) -> bool:
        if empty:
            return code == EMPTY
        return code != EMPTY and (code in codes or self.base[code] in codes)

    # ---- numbers
    def number(self, expr: m.Expr, bound: dict[int, Any]) -> Sum:
        if isinstance(expr, m.Const) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
            return Sum(constant=int(expr.value))
        if isinstance(expr, m.Local) and isinstance(bound.get(expr.slot), int) and expr.type == m.NUM:
            return Sum(constant=bound[expr.slot])
        if isinstance(expr, m.CounterValue):
            k = self.position.get(("counter", expr.counter))
            if k is None:
                return Sum(constant=self.start.counters[expr.counter])
            return Sum({k: list(self.values[k])})
        if isinstance(expr, (m.ValueOf, m.PieceAttr)) and (isinstance(expr, m.ValueOf) or expr.name == "value"):
            cell = self.cell_of(expr.piece, bound)
            k = self.position.get(("cell", cell))
            codes = [self.start.cells[cell]] if k is None else list(self.values[k])
            numbers = []
            for code in codes:
                number = self.piece_value[self.base[code]] if code != EMPTY else None
                if number is None:
                    raise Inexpressible(expr.pos, "the number of a cell that may hold no numbered piece")
                numbers.append(number)
            return Sum(constant=numbers[0]) if k is None else Sum({k: numbers})
        if isinstance(expr, m.CellAttr) and self.puzzle.board is not None:
            found = self.puzzle.board.cells[self.cell_of(expr.cell, bound)]
            return Sum(constant=int((found.row if expr.name == "row" else found.col) or 0))
        if isinstance(expr, m.Unary) and expr.op == "-":
            return self.number(expr.operand, bound).times(-1)
        if isinstance(expr, m.Binary) and expr.op in ("+", "-"):
            return self.number(expr.left, bound).plus(self.number(expr.right, bound), 1 if expr.op == "+" else -1)
        if isinstance(expr, m.Binary) and expr.op == "*":
            left, right = self.number(expr.left, bound), self.number(expr.right, bound)
            if left.known:
                return right.times(left.constant)
            if right.known:
                return left.times(right.constant)
            raise Inexpressible(expr.pos, "a product of two unknowns")
        if isinstance(expr, m.Aggregate) and expr.function in ("count", "sum"):
            return self._aggregate(expr, bound)
        if isinstance(expr, m.Call) and expr.name in KNOWN_CALLS:
            args = [self.number(a, bound) for a in expr.args]
            if all(a.known for a in args):  # of numbers known before the search (a cell's column)
                return Sum(constant=KNOWN_CALLS[expr.name](*(a.constant for a in args)))
        raise Inexpressible(expr.pos, "this number")

    def _aggregate(self, expr: m.Aggregate, bound: dict[int, Any]) -> Sum:
        domain = expr.domain
        if isinstance(domain, m.KindDomain) and domain.where is None and not self.puzzle.places:
            members = list(range(self.puzzle.cell_count))
            kind: m.Expr = m.IsKind(expr.pos, m.Local(expr.pos, "", expr.slot, m.CELL), domain.codes)
            condition: m.Expr | None = (
                kind if expr.condition is None else m.Binary(expr.pos, "and", kind, expr.condition, m.BOOL)
            )
        else:
            members = self._members(domain, bound, expr.pos)
            condition = expr.condition
        total = Sum()
        for member in members:
            inner = {**bound, expr.slot: member}
            if expr.function == "sum":
                assert expr.value is not None
                amount = self.number(expr.value, inner)
            else:
                amount = Sum(constant=1)
            if condition is not None:
                amount = self._when(condition, amount, inner)
            total = total.plus(amount)
        return total

    def _when(self, condition: m.Expr, amount: Sum, bound: dict[int, Any]) -> Sum:
        """`amount` where `condition` holds, else 0: linear where the condition is on one
        thing and the amount is known or of that thing."""
        parts = [condition]
        while isinstance(parts[0], m.Binary) and parts[0].op == "and":
            parts = [parts[0].left, parts[0].right, *parts[1:]]
        chosen: dict[int, set[int]] = {}
        for part in parts:
            known = self.indicator(part, bound)
            if known is False:
                return Sum()
            if known is True:
                continue
            k, indices = known  # type: ignore[misc]
            chosen[k] = chosen.get(k, set(indices)) & set(indices)
        if not chosen:
            return amount
        if len(chosen) > 1 or not set(amount.terms) <= set(chosen):
            raise Inexpressible(condition.pos, "a condition on more than one thing inside a count or a sum")
        ((k, where),) = chosen.items()
        own = amount.terms.get(k)
        coefs = [(own[i] if own else 0) + amount.constant if i in where else 0 for i in range(len(self.values[k]))]
        return Sum({k: coefs})

    # ---- cells and collections
    def cell_of(self, expr: m.Expr, bound: dict[int, Any]) -> int:
        return known_cell(expr, bound)

    def cells_of(self, domain: m.Domain, bound: dict[int, Any], pos: Pos) -> list[int]:
        return known_cells(domain, bound, pos, self.puzzle.cell_count)

    def _members(self, domain: m.Domain, bound: dict[int, Any], pos: Pos) -> list[Any]:
        return known_members(domain, bound, pos, self.puzzle.cell_count)


COMPARE: dict[str, Callable[[int], bool]] = {  # the difference of the sides, compared with 0
    "==": lambda d: d == 0,
    "!=": lambda d: d != 0,
    "<": lambda d: d < 0,
    "<=": lambda d: d <= 0,
    ">": lambda d: d > 0,
    ">=": lambda d: d >= 0,
}
KNOWN_CALLS: dict[str, Callable[..., int]] = {"abs": abs, "min": min, "max": max}
BOUNDS: dict[str, tuple[int | None, int | None]] = {  # difference of the sides: None, no bound
    "==": (0, 0),
    "<=": (None, 0),
    "<": (None, -1),
    ">=": (0, None),
    ">": (1, None),
}


_TRANSLATED: weakref.WeakKeyDictionary[CompiledPuzzle, FillModel | Inexpressible] = weakref.WeakKeyDictionary()


def translate(compiled: CompiledPuzzle) -> FillModel:
    """The filling's model for the kernel (Inexpressible: a piece it cannot take, and why).
    Made once per puzzle: the plan asks whether the kernel can say the rules, then the
    search runs on the same model (a model of many clauses takes a fraction of a second)."""
    if compiled not in _TRANSLATED:
        family = compiled.filling
        assert isinstance(family, FillFamily)
        try:
            _TRANSLATED[compiled] = Translation(compiled, family).model()
        except Inexpressible as exc:
            _TRANSLATED[compiled] = exc
    found = _TRANSLATED[compiled]
    if isinstance(found, Inexpressible):
        raise found.with_traceback(None)
    return found
