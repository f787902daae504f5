"""A filling's rules read as terms of its things: the one reading every model of a filling is
built from (the kernel's fill model, `kernel.fill.fill_model`; CP-SAT's, `engines.constraints`).

A piece of a rule (`FillFamily.instances`: a rule cut along `and` and fixed quantifiers) reads
cells and counters; the things are the open ones (the cells the start leaves empty, the
counters to find), and everything else is known before the search. Reading a piece once, here,
turns it into terms where every known part is folded away:

- a number is `Affine` where it is linear in the things' values: a constant and, for each
  thing, its contribution for each of its values (`c.value` is one thing's numbers; `count(c
  in l if c is queen)` one term per cell, 1 for a queen; `1000*S + 100*E + ...` one term per
  counter); else a `Product`, an `abs`/`min`/`max` (`Call`), a sum of such (`Plus`), or a
  part of a conditional sum (`Where`);
- a condition on one thing is a `Lit` (the thing, and the indices of its values where it
  holds); conditions combine by `And`, `Or`, `Not`; a comparison that is not on one thing is a
  `Compare`; an `all different` is a `Distinct` (each thing's key for each value, and the keys
  the start gives).

Each engine says the terms in its own model, and refuses what it cannot (`Inexpressible`, with
the piece's position): so a bug in how a rule is read is fixed once, for every engine. A piece
the terms cannot say (a cell known only during the search, a division of a number that reads
several things) is Inexpressible here;
the kernel then tabulates it, CP-SAT refuses it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import NOWHERE, Pos
from ..model import expr as m
from ..model.puzzle import EMPTY, Puzzle
from .families.fill import FillFamily, Inexpressible, OffBoard, known_cell, known_cells, known_members, rule_cuts

# ---- numbers


@dataclass(frozen=True)
class Affine:
    """constant + the sum, over the things, of each thing's contribution for its value (by
    index): `terms[k][i]` is what thing k adds when it takes its i-th value."""

    terms: dict[int, tuple[int, ...]]
    constant: int = 0
    pos: Pos = NOWHERE

    @property
    def known(self) -> bool:
        return not self.terms

    def plus(self, other: Affine, sign: int = 1) -> Affine:
        terms = dict(self.terms)
        for k, coefs in other.terms.items():
            mine = terms.get(k, (0,) * len(coefs))
            terms[k] = tuple(a + sign * b for a, b in zip(mine, coefs, strict=True))
        return Affine(terms, self.constant + sign * other.constant, self.pos)

    def times(self, factor: int) -> Affine:
        terms = {k: tuple(factor * c for c in v) for k, v in self.terms.items()}
        return Affine(terms, self.constant * factor, self.pos)


@dataclass(frozen=True)
class Product:
    left: Num
    right: Num
    pos: Pos


@dataclass(frozen=True)
class Call:
    """`abs`, `min` or `max` of numbers, one of them at least not known."""

    name: str
    args: tuple[Num, ...]
    pos: Pos


@dataclass(frozen=True)
class Plus:
    """The sum of numbers (each with its sign) and a constant, where one is not affine."""

    parts: tuple[tuple[int, Num], ...]
    pos: Pos


@dataclass(frozen=True)
class Where:
    """`amount` where `condition` holds, else 0: a member of a conditional sum or count."""

    condition: Cond
    amount: Num
    pos: Pos


Num = Affine | Product | Call | Plus | Where


# ---- conditions


@dataclass(frozen=True)
class Lit:
    """Thing `thing` takes one of its values of index in `values`."""

    thing: int
    values: frozenset[int]


@dataclass(frozen=True)
class And:
    parts: tuple[Cond, ...]


@dataclass(frozen=True)
class Or:
    parts: tuple[Cond, ...]


@dataclass(frozen=True)
class Not:
    part: Cond


@dataclass(frozen=True)
class Compare:
    """left OP right, where the two are not a condition on one thing."""

    op: str
    left: Num
    right: Num
    pos: Pos


@dataclass(frozen=True)
class Distinct:
    """No two things take values of the same key (a piece, a number), nor a key the start
    gives (`given`); a value whose key is None (an empty cell) takes none."""

    keys: dict[int, tuple[Any, ...]]
    given: tuple[Any, ...]
    numbers: bool  # `all different` of numbers (counters' values), rather than of the pieces on cells
    pos: Pos


@dataclass(frozen=True)
class LineRuns:
    """The runs of consecutive cells of a line where `cells` hold (each a condition on one
    cell: it holds a piece of the kind) have the lengths `clue`, in order: a nonogram's line."""

    cells: tuple[Cond, ...]
    clue: tuple[int, ...]
    pos: Pos


Cond = bool | Lit | And | Or | Not | Compare | Distinct | LineRuns

TESTS: dict[str, Callable[[int], bool]] = {  # the difference of the two sides, compared with 0
    "==": lambda d: d == 0,
    "!=": lambda d: d != 0,
    "<": lambda d: d < 0,
    "<=": lambda d: d <= 0,
    ">": lambda d: d > 0,
    ">=": lambda d: d >= 0,
}


def both(parts: Sequence[Cond]) -> Cond:
    """`and` of the parts, constants folded, nested `and`s joined."""
    return _joined(And, parts)


def either(parts: Sequence[Cond]) -> Cond:
    return _joined(Or, parts)


def _joined(kind: type[And] | type[Or], parts: Sequence[Cond]) -> Cond:
    absorbing = kind is Or  # True absorbs an `or`, False an `and`
    kept: list[Cond] = []
    for part in parts:
        if isinstance(part, bool):
            if part is absorbing:
                return absorbing
            continue
        if isinstance(part, kind):
            kept.extend(part.parts)
        else:
            kept.append(part)
    if not kept:
        return not absorbing
    if len(kept) == 1:
        return kept[0]
    return kind(tuple(kept))


def negated(cond: Cond, sizes: Sequence[int]) -> Cond:
    """`not cond`, pushed down to the literals where it can be (a comparison and an `all
    different` are wrapped)."""
    if isinstance(cond, bool):
        return not cond
    if isinstance(cond, Lit):
        return Lit(cond.thing, frozenset(range(sizes[cond.thing])) - cond.values)
    if isinstance(cond, And):
        return either([negated(p, sizes) for p in cond.parts])
    if isinstance(cond, Or):
        return both([negated(p, sizes) for p in cond.parts])
    if isinstance(cond, Not):
        return cond.part
    return Not(cond)


# ---- reading


class Terms:
    """A filling's pieces read as terms (`number`, `condition`), with the things it decides."""

    def __init__(self, puzzle: Puzzle, family: FillFamily, cells: Sequence[int], counters: Sequence[int]):
        self.puzzle, self.family = puzzle, family
        self.start = cells  # the start's cells and counters, decoded: the givens
        self.start_counters = counters
        self.piece_value: list[int | None] = [None, *(p.value for p in puzzle.pieces)]  # by piece code
        self.base = [part.piece for part in puzzle.parts]  # by code: the piece an `all different` compares
        self.position = family.position
        self.values = [var.values for var in family.vars]
        self.sizes = [len(v) for v in self.values]
        self.distinct_cells = _distinct_cells(puzzle)
        self._holding_free = False  # reading a node with no `holding(...)` below it (`_condition`)

    def thing_of_cell(self, cell: int) -> int | None:
        return self.position.get(("cell", cell))

    def thing_of_counter(self, counter: int) -> int | None:
        return self.position.get(("counter", counter))

    # ---- numbers
    def number(self, expr: m.Expr, bound: dict[int, Any]) -> Num:
        """The number as terms (Inexpressible: a part that only the search knows)."""
        pos = expr.pos
        if isinstance(expr, m.Const) and isinstance(expr.value, int) and not isinstance(expr.value, bool):
            return Affine({}, int(expr.value), pos)
        if isinstance(expr, m.Local) and type(bound.get(expr.slot)) is int and expr.type == m.NUM:
            return Affine({}, bound[expr.slot], pos)
        if isinstance(expr, m.CounterValue):
            k = self.thing_of_counter(expr.counter)
            if k is None:
                return Affine({}, self.given_counter(expr.counter), pos)
            return Affine({k: tuple(self.values[k])}, 0, pos)
        if isinstance(expr, (m.ValueOf, m.PieceAttr)) and (isinstance(expr, m.ValueOf) or expr.name == "value"):
            return self._value_of(expr, bound)
        if isinstance(expr, m.CellAttr) and self.puzzle.board is not None:
            found = self.puzzle.board.cells[self.known_cell(expr.cell, bound)]
            return Affine({}, int((found.row if expr.name == "row" else found.col) or 0), pos)
        if isinstance(expr, m.Unary) and expr.op == "-":
            return self.scaled(self.number(expr.operand, bound), -1, pos)
        if isinstance(expr, m.Binary) and expr.op in ("+", "-"):
            left, right = self.number(expr.left, bound), self.number(expr.right, bound)
            return self.added(left, right, 1 if expr.op == "+" else -1, pos)
        if isinstance(expr, m.Binary) and expr.op == "*":
            left, right = self.number(expr.left, bound), self.number(expr.right, bound)
            if isinstance(left, Affine) and left.known:
                return self.scaled(right, left.constant, pos)
            if isinstance(right, Affine) and right.known:
                return self.scaled(left, right.constant, pos)
            return Product(left, right, pos)
        if isinstance(expr, m.Binary) and expr.op in ("/", "%"):
            return self._divided(expr, bound)
        if isinstance(expr, m.Aggregate) and expr.function in ("count", "sum"):
            return self._aggregate(expr, bound)
        if isinstance(expr, m.Aggregate) and expr.value is not None:
            return self._extreme(expr, bound)
        if isinstance(expr, m.Product):
            return self._product(expr, bound)
        if isinstance(expr, m.Index) and expr.type == m.NUM:
            item = self.known_item(expr, bound)
            assert isinstance(item, int)
            return Affine({}, item, pos)
        if isinstance(expr, m.LineAttr) and self.puzzle.board is not None:
            first = self.puzzle.board.cells[self.known_line(expr.line, bound)[0]]
            return Affine({}, int((first.row if expr.name == "row" else first.col) or 0), pos)
        if isinstance(expr, m.Call) and expr.name in CALLS:
            args = tuple(self.number(a, bound) for a in expr.args)
            if all(isinstance(a, Affine) and a.known for a in args):
                return Affine({}, CALLS[expr.name](*(a.constant for a in args if isinstance(a, Affine))), pos)
            return Call(expr.name, args, pos)
        raise Inexpressible(pos, "this number")

    def known_cell(self, expr: m.Expr, bound: dict[int, Any]) -> int:
        """As `families.fill.known_cell`, and `cell(r, c)` (or `cell(i)`) whose numbers the
        rule's piece fixes (`cell(a.row, j)` for a row `a` and a column number `j`)."""
        board = self.puzzle.board
        if isinstance(expr, m.Content):
            return self.known_cell(expr.cell, bound)
        if isinstance(expr, m.CellOf):
            return self.known_cell(expr.piece, bound)
        if not isinstance(expr, m.CellAt) or board is None:
            return known_cell(expr, bound)
        try:
            values = [self.number(arg, bound) for arg in expr.args]
        except Inexpressible:
            values = []
        if not values or not all(isinstance(v, Affine) and v.known for v in values):
            raise Inexpressible(expr.pos, "a cell that is only known during the search")
        at = [v.constant for v in values if isinstance(v, Affine)]
        found = board.at(1, at[0]) if len(at) == 1 else board.at(at[0], at[1])
        if found is None:  # an error in the search, which Python reports where it meets it
            raise Inexpressible(expr.pos, "a cell off the board")
        return found

    def known_item(self, expr: m.Index, bound: dict[int, Any]) -> int | tuple[int, ...]:
        """`l[i]` where the rule's piece fixes i (an index outside the list: an error at it)."""
        at = self.number(expr.at, bound)
        if not (isinstance(at, Affine) and at.known):
            raise Inexpressible(expr.at.pos, "a list's index that is only known during the search")
        values: tuple[Any, ...] = (
            expr.obj.values if not isinstance(expr.obj, m.Index) else self.known_list(expr.obj, bound)
        )
        if not 1 <= at.constant <= len(values):
            raise Inexpressible(expr.at.pos, f"an index outside its list ({at.constant}, of 1..{len(values)})")
        item = values[at.constant - 1]
        return item if isinstance(item, int) else tuple(item)

    def known_list(self, expr: m.Expr, bound: dict[int, Any]) -> tuple[int, ...]:
        """A list known before the search (a constant, or an item of a list of lists)."""
        if isinstance(expr, m.ListConst):
            return expr.values
        if isinstance(expr, m.Index) and expr.type == m.LIST:
            found = self.known_item(expr, bound)
            assert isinstance(found, tuple)
            return found
        raise Inexpressible(expr.pos, "a list that is only known during the search")

    @staticmethod
    def known_line(expr: m.Expr, bound: dict[int, Any]) -> tuple[int, ...]:
        if isinstance(expr, m.Local) and isinstance(bound.get(expr.slot), tuple):
            return tuple(bound[expr.slot])
        raise Inexpressible(expr.pos, "a line that is only known during the search")

    def _extreme(self, expr: m.Aggregate, bound: dict[int, Any]) -> Num:
        """min(...) or max(...) over fixed members, each a member for sure."""
        assert expr.value is not None
        args: list[Num] = []
        for _, inner, membership in self.members(expr.domain, expr.slot, bound, expr.pos):
            taken = membership if expr.condition is None else both([membership, self.condition(expr.condition, inner)])
            if taken is False:
                continue
            if taken is not True:
                raise Inexpressible(expr.pos, f"{expr.function}() over members that only the search decides")
            args.append(self.number(expr.value, inner))
        if not args:
            raise Inexpressible(expr.pos, f"{expr.function}() over nothing")
        if all(isinstance(a, Affine) and a.known for a in args):
            return Affine({}, CALLS[expr.function](a.constant for a in args if isinstance(a, Affine)), expr.pos)
        return args[0] if len(args) == 1 else Call(expr.function, tuple(args), expr.pos)

    def _product(self, expr: m.Product, bound: dict[int, Any]) -> Num:
        """The product over fixed members, each a member for sure (1 over nothing)."""
        total: Num = Affine({}, 1, expr.pos)
        for _, inner, membership in self.members(expr.domain, expr.slot, bound, expr.pos):
            taken = membership if expr.condition is None else both([membership, self.condition(expr.condition, inner)])
            if taken is False:
                continue
            if taken is not True:
                raise Inexpressible(expr.pos, "product() over members that only the search decides")
            factor = self.number(expr.value, inner)
            if isinstance(total, Affine) and total.known:
                total = self.scaled(factor, total.constant, expr.pos)
            elif isinstance(factor, Affine) and factor.known:
                total = self.scaled(total, factor.constant, expr.pos)
            else:
                total = Product(total, factor, expr.pos)
        return total

    def given_counter(self, counter: int) -> int:
        return int(self.start_counters[counter])

    def _value_of(self, expr: m.ValueOf | m.PieceAttr, bound: dict[int, Any]) -> Affine:
        """A cell's number: each of its pieces' numbers (a given's is known)."""
        cell = self.known_cell(expr.piece, bound)
        k = self.thing_of_cell(cell)
        codes = [self.start[cell]] if k is None else list(self.values[k])
        numbers = []
        for code in codes:
            number = self.piece_value[self.base[code]] if code != EMPTY else None
            if number is None:
                raise Inexpressible(expr.pos, "the number of a cell that may hold no numbered piece")
            numbers.append(number)
        return Affine({}, numbers[0], expr.pos) if k is None else Affine({k: tuple(numbers)}, 0, expr.pos)

    def _divided(self, expr: m.Binary, bound: dict[int, Any]) -> Affine:
        """`/` or `%` by a known divisor of a number that reads one thing at most (`c.value / 10`,
        `c.value % 10`): each of the thing's values divided, as the search divides it."""
        left, right = self.number(expr.left, bound), self.number(expr.right, bound)
        if not (isinstance(right, Affine) and right.known):
            raise Inexpressible(expr.right.pos, "a divisor that is only known during the search")
        divisor = right.constant
        if divisor == 0:  # an error in the search, which Python reports where it meets it
            raise Inexpressible(expr.right.pos, "a division by zero")
        if not (isinstance(left, Affine) and len(left.terms) <= 1):
            raise Inexpressible(expr.pos, "a division of a number that reads several things")
        op = (lambda a: a // divisor) if expr.op == "/" else (lambda a: a % divisor)
        if left.known:
            return Affine({}, op(left.constant), expr.pos)
        ((k, coefs),) = left.terms.items()
        return Affine({k: tuple(op(left.constant + c) for c in coefs)}, 0, expr.pos)

    @staticmethod
    def scaled(number: Num, factor: int, pos: Pos) -> Num:
        if isinstance(number, Affine):
            return dataclasses.replace(number.times(factor), pos=pos)
        if factor == 1:
            return number
        return Plus(((factor, number),), pos) if factor != 0 else Affine({}, 0, pos)

    @staticmethod
    def added(left: Num, right: Num, sign: int, pos: Pos) -> Num:
        if isinstance(left, Affine) and isinstance(right, Affine):
            return dataclasses.replace(left.plus(right, sign), pos=pos)
        parts: list[tuple[int, Num]] = []
        for s, part in ((1, left), (sign, right)):
            if isinstance(part, Plus):
                parts.extend((s * t, p) for t, p in part.parts)
            else:
                parts.append((s, part))
        return Plus(tuple(parts), pos)

    def _aggregate(self, expr: m.Aggregate, bound: dict[int, Any]) -> Num:
        """count(...) or sum(...) over fixed members (over the pieces of a kind: one member per
        cell, that counts where the cell holds one)."""
        total: Num = Affine({}, 0, expr.pos)
        for _, inner, membership in self.members(expr.domain, expr.slot, bound, expr.pos):
            if expr.function == "sum":
                assert expr.value is not None
                amount = self.number(expr.value, inner)
            else:
                amount = Affine({}, 1, expr.pos)
            condition = membership
            if expr.condition is not None:
                condition = both([condition, self.condition(expr.condition, inner)])
            total = self.added(total, self.where(condition, amount, expr.pos), 1, expr.pos)
        return total

    def where(self, condition: Cond, amount: Num, pos: Pos) -> Num:
        """`amount` where `condition` holds, else 0: affine where the condition is on one thing
        (or several conditions on the same one) and the amount is known or of that thing."""
        if condition is True:
            return amount
        if condition is False:
            return Affine({}, 0, pos)
        literals: list[Cond] = [condition] if isinstance(condition, Lit) else []
        if isinstance(condition, And):
            literals = list(condition.parts)
        if literals and all(isinstance(p, Lit) for p in literals) and isinstance(amount, Affine):
            things = {p.thing for p in literals if isinstance(p, Lit)}
            if len(things) == 1 and set(amount.terms) <= things:
                (k,) = things
                where = frozenset(range(self.sizes[k]))
                for p in literals:
                    assert isinstance(p, Lit)
                    where &= p.values
                own = amount.terms.get(k)
                coefs = tuple(
                    ((own[i] if own else 0) + amount.constant) if i in where else 0 for i in range(self.sizes[k])
                )
                return Affine({k: coefs}, 0, pos)
        return Where(condition, amount, pos)

    # ---- conditions
    def condition(self, expr: m.Expr, bound: dict[int, Any]) -> Cond:
        """The condition as terms (Inexpressible: a part that only the search knows); an `or`
        of comparisons of two things that share one is split on that thing's values (`split`)."""
        found = self._condition(expr, bound)
        if isinstance(found, Or):
            found = self.split(found)
        return self.distributed(found) if isinstance(found, Or) else found

    def distributed(self, cond: Or) -> Cond:
        """An `or` of one `and` and other parts, as the `and` of an `or` for each of its parts,
        each `or`'s conditions on one thing joined: the `or` whose right side was split
        (`c.value == 81 or some x ...: x.value == c.value + 1`, its `some` split on c's values
        first) becomes clauses again (c is 81 or not i, or a neighbour holds i + 1), not a
        reified `and` of 80 clauses. Exact (`a or (b and c)` is `(a or b) and (a or c)`), and
        no larger than the `or` times the parts of its `and`; where it has several `and`s
        (the product could be large) it is left as it is."""
        ands = [part for part in cond.parts if isinstance(part, And)]
        if len(ands) != 1 or len(ands[0].parts) * len(cond.parts) > SPLIT_MOST:
            return cond
        rest = [part for part in cond.parts if part is not ands[0]]
        things = {part.thing for part in rest if isinstance(part, Lit)}
        return both([self._joined_literals([*rest, part], things) for part in ands[0].parts])

    def _joined_literals(self, parts: list[Cond], things: set[int]) -> Cond:
        """`either(parts)`, its conditions on one thing joined into one (true where the thing
        may then take any of its values), where `things` (those of the `or`'s own literals)
        have more than one."""
        joined = either(parts)
        if not isinstance(joined, Or):
            return joined
        if sum(1 for part in joined.parts if isinstance(part, Lit) and part.thing in things) <= len(things):
            return joined  # each of those things has one literal at most: nothing to join
        values: dict[int, frozenset[int]] = {}
        kept: list[Cond] = []  # a thing's joined condition stands where its first stood
        for part in joined.parts:
            if isinstance(part, Lit):
                if part.thing in values:
                    values[part.thing] |= part.values
                    continue
                values[part.thing] = part.values
            kept.append(part)
        sizes = self.sizes
        if any(len(v) == sizes[k] for k, v in values.items()):
            return True
        out = [
            part
            if not isinstance(part, Lit) or part.values is values[part.thing]
            else Lit(part.thing, values[part.thing])
            for part in kept
        ]
        return out[0] if len(out) == 1 else Or(tuple(out))  # `either`: no part of it an `or` or a constant

    def split(self, cond: Cond) -> Cond:
        """`cond` split on the values of a thing every comparison in it reads, where fixing
        that thing leaves each comparison on one thing: `every c in cells: c.value == 9 or
        some x in neighbours(c, king): x.value == c.value + 1` becomes, for each value i of
        c, "c is not i, or a neighbour holds i + 1": clauses, which every model says and
        propagates, where the comparisons of two things would be a table or reified sums.
        Exact: a thing takes one of its values, so `cond` holds exactly when, for each i,
        the thing is not i or `cond` with the thing at i holds."""
        compares = _compares(cond)
        if not compares or not all(isinstance(c, Compare) for c in compares):
            return cond
        shared = set.intersection(*(things_of(c) for c in compares))
        fits = [k for k in shared if all(len(things_of(c)) == 2 for c in compares)]
        if not fits:
            return cond
        k = min(fits, key=lambda thing: self.sizes[thing])
        if self.sizes[k] * len(compares) > SPLIT_MOST:
            return cond
        every = frozenset(range(self.sizes[k]))
        differences = {id(c): _difference(c, k) for c in compares}  # each comparison's, once for every value
        cases: list[Cond] = []
        for i in range(self.sizes[k]):
            fixed = self._fixed(cond, k, i, differences)
            if fixed is None:
                return cond
            cases.append(either([Lit(k, every - {i}), fixed]))
        return both(cases)

    def _fixed(self, cond: Cond, k: int, i: int, differences: dict[int, Difference | None]) -> Cond | None:
        """`cond` with thing k at its i-th value (None: a part that cannot be fixed);
        `differences` has each comparison's left side less its right (`_difference`)."""
        difference = differences.get(id(cond))
        if difference is not None:
            assert isinstance(cond, Compare)
            return self._fixed_compare(cond, difference, k, i)
        if isinstance(cond, bool):
            return cond
        if isinstance(cond, Lit):
            return (i in cond.values) if cond.thing == k else cond
        if isinstance(cond, (And, Or)):
            parts = []
            for part in cond.parts:
                fixed = self._fixed(part, k, i, differences)
                if fixed is None:
                    return None
                parts.append(fixed)
            return both(parts) if isinstance(cond, And) else either(parts)
        if isinstance(cond, Not):
            inner = self._fixed(cond.part, k, i, differences)
            return None if inner is None else negated(inner, self.sizes)
        return None

    @staticmethod
    def _fixed_compare(cond: Compare, difference: Difference, k: int, i: int) -> Cond:
        """`compare` of the comparison with thing k at its i-th value, read from the difference
        of its sides (a split asks it once for each value: Numbrix, 12,000 times)."""
        coefs, rest, constant = difference
        if coefs is not None:
            constant += coefs[i]
        if not rest:
            return TESTS[cond.op](constant)
        if len(rest) == 1:
            ((thing, others),) = rest.items()
            if cond.op in ("==", "!="):
                return Lit(thing, _equal_at(others, -constant, cond.op == "!="))
            test = TESTS[cond.op]
            return Lit(thing, frozenset(j for j, c in enumerate(others) if test(c + constant)))
        assert isinstance(cond.left, Affine) and isinstance(cond.right, Affine)
        return Compare(cond.op, _at(cond.left, k, i), _at(cond.right, k, i), cond.pos)

    def _condition(self, expr: m.Expr, bound: dict[int, Any]) -> Cond:
        """A `holding(v)` is looked for at each level (its v may be known only inside a
        quantifier), except under a node with none at all below it, which is read plainly."""
        if self._holding_free:
            return self._plain_condition(expr, bound)
        if not _mentions_holding(expr):
            self._holding_free = True
            try:
                return self._plain_condition(expr, bound)
            finally:
                self._holding_free = False
        holding = self._holding_known(expr, bound)
        if holding is not None:
            return self._held(expr, holding, bound)
        return self._plain_condition(expr, bound)

    def _plain_condition(self, expr: m.Expr, bound: dict[int, Any]) -> Cond:
        if isinstance(expr, m.Const) and isinstance(expr.value, bool):
            return expr.value
        if isinstance(expr, m.Call) and expr.name == "adjacent":
            return self._adjacent(expr, bound)
        if isinstance(expr, m.Unary) and expr.op == "not":
            return negated(self.condition(expr.operand, bound), self.sizes)
        if isinstance(expr, m.Binary) and expr.op in ("and", "or"):
            left = self.condition(expr.left, bound)
            if left is (expr.op == "or"):  # decided by the left, as the search reads it: the right is never read
                return left
            parts = [left, self.condition(expr.right, bound)]
            return both(parts) if expr.op == "and" else either(parts)
        if isinstance(expr, m.Binary) and expr.op in TESTS and expr.left.type == m.NUM:
            return self.compare(expr.op, self.number(expr.left, bound), self.number(expr.right, bound), expr.pos)
        if isinstance(expr, m.Binary) and expr.op in ("==", "!=") and expr.left.type == m.LIST:
            runs = self._runs(expr.left, expr.right, bound) or self._runs(expr.right, expr.left, bound)
            if runs is None:
                raise Inexpressible(expr.pos, "this comparison of lists")
            return runs if expr.op == "==" else negated(runs, self.sizes)
        if isinstance(expr, m.Binary) and expr.op in ("==", "!=") and expr.left.type == m.BOOL:
            a, b = self.condition(expr.left, bound), self.condition(expr.right, bound)
            same = either([both([a, b]), both([negated(a, self.sizes), negated(b, self.sizes)])])
            return same if expr.op == "==" else negated(same, self.sizes)
        if isinstance(expr, m.IsKind) and isinstance(expr.piece, m.Call) and expr.piece.name == "first":
            return self._first_is(expr.piece, expr.codes, bound)
        if isinstance(expr, m.IsKind):
            try:
                return self.holds(self.known_cell(expr.piece, bound), expr.codes, False)
            except OffBoard:  # no cell, no piece: of no kind
                return False
        if isinstance(expr, m.IsEmpty) and expr.operand.type in (m.CELL, m.PIECE):
            try:
                return self.holds(self.known_cell(expr.operand, bound), frozenset([EMPTY]), True)
            except OffBoard:  # no cell: not an empty one
                return False
        if isinstance(expr, m.Quantified):
            return self._quantified(expr, bound)
        if isinstance(expr, m.AllDifferent):
            return self.distinct(expr, bound)
        if isinstance(expr, m.Binary) and expr.op in ("==", "!=") and expr.left.type == m.TEXT:
            text = self._known_text(expr.left, bound), self._known_text(expr.right, bound)
            if None not in text:
                return (text[0] == text[1]) == (expr.op == "==")
        raise Inexpressible(expr.pos, "this condition")

    def _known_text(self, expr: m.Expr, bound: dict[int, Any]) -> str | None:
        """Text known before the search: a constant, or the name of a cell the piece fixes."""
        if isinstance(expr, m.Const) and isinstance(expr.value, str):
            return expr.value
        if isinstance(expr, m.CellAttr) and expr.name == "name" and self.puzzle.board is not None:
            return self.puzzle.board.name(self.known_cell(expr.cell, bound))
        return None

    def _runs(self, runs: m.Expr, clue: m.Expr, bound: dict[int, Any]) -> Cond | None:
        """`runs(l, K) == CLUE` as a condition on the line's cells (None: `runs` is not the
        left side); decided now where every cell of the line is a given."""
        if not isinstance(runs, m.Runs):
            return None
        lengths = self.known_list(clue, bound)
        cells = known_cells(runs.domain, bound, runs.pos, self.puzzle.cell_count)
        holds = tuple(self.holds(cell, runs.codes, False) for cell in cells)
        if all(isinstance(h, bool) for h in holds):
            found = [len(part) for part in "".join("1" if h else "0" for h in holds).split("0") if part]
            return tuple(found) == lengths
        return LineRuns(holds, lengths, runs.pos)

    # ---- the cell holding a number
    def _holding_known(self, expr: m.Expr, bound: dict[int, Any]) -> tuple[m.Call, int] | None:
        """A `holding(v)` in the condition whose v is known here, with v (None: none)."""
        if isinstance(expr, m.Call) and expr.name == "holding":
            try:
                number = self.number(expr.args[0], bound)
            except Inexpressible:
                return None
            if isinstance(number, Affine) and number.known:
                return expr, number.constant
            return None
        for child in m.children(expr):
            found = self._holding_known(child, bound)
            if found is not None:
                return found
        return None

    def _held(self, expr: m.Expr, holding: tuple[m.Call, int], bound: dict[int, Any]) -> Cond:
        """The condition with `holding(v)` read as the cell that holds v: some cell holds v
        and the condition holds of each that does, or no cell holds v and it holds of none.
        Exact where the rules keep v to one cell at most (an `all different` of every cell
        that may hold it: then "each that does" is "the one"); elsewhere the first in reading
        order is meant, which is left to the search (Inexpressible)."""
        call, v = holding
        may = self._cells_holding(v)
        codes = frozenset(code for code, number in enumerate(self.piece_value) if number == v)
        if len(codes) > 1 or not any(set(may) <= cells for cells in self.distinct_cells):
            raise Inexpressible(call.pos, f"holding({v}) where no `all different` of the cells keeps {v} to one")
        somewhere = [self.holds(cell, codes, False) for cell in may]
        of_each = [self.condition(_replaced(expr, call, cell), bound) for cell in may]
        nowhere = m.Call(call.pos, "nowhere", (), m.CELL)
        none = False if any(s is True for s in somewhere) else self.condition(_replaced(expr, call, nowhere), bound)
        if all(isinstance(p, bool) for p in of_each):  # one clause: "one of the cells where it holds holds v"
            found = [here for here, p in zip(somewhere, of_each, strict=True) if p]
            return either([*found, both([*(negated(s, self.sizes) for s in somewhere), none])])
        cases = [either([negated(here, self.sizes), p]) for here, p in zip(somewhere, of_each, strict=True)]
        return both([either([*somewhere, none]), *cases])

    def _cells_holding(self, v: int) -> list[int]:
        """The cells that may hold the piece numbered v: given, or open with it among their values."""
        out = []
        for cell in range(self.puzzle.cell_count):
            k = self.thing_of_cell(cell)
            codes = [self.start[cell]] if k is None else self.values[k]
            if any(code != EMPTY and self.piece_value[self.base[code]] == v for code in codes):
                out.append(cell)
        return out

    def _adjacent(self, expr: m.Call, bound: dict[int, Any]) -> Cond:
        """`adjacent(a, b, ...)` of two cells known here (no cell, `nowhere`: false)."""
        a, b, *directions = expr.args
        if any(isinstance(x, m.Call) and x.name == "nowhere" for x in (a, b)):
            return False
        first, second = self.known_cell(a, bound), self.known_cell(b, bound)
        return any(x.direction.next(first) == second for x in directions if isinstance(x, m.DirectionConst))

    def compare(self, op: str, left: Num, right: Num, pos: Pos) -> Cond:
        """left OP right: a constant, or a condition on one thing, where it can be."""
        if isinstance(left, Affine) and isinstance(right, Affine):
            difference = left.plus(right, -1)
            test = TESTS[op]
            if difference.known:
                return test(difference.constant)
            if len(difference.terms) == 1:
                ((k, coefs),) = difference.terms.items()
                if op in ("==", "!="):
                    return Lit(k, _equal_at(coefs, -difference.constant, op == "!="))
                return Lit(k, frozenset(i for i, c in enumerate(coefs) if test(c + difference.constant)))
        return Compare(op, left, right, pos)

    def holds(self, cell: int, codes: frozenset[int], empty: bool) -> Cond:
        """The cell holds one of `codes` (`empty`: the codes are the empty code alone)."""
        k = self.thing_of_cell(cell)
        if k is None:
            return self._holds(self.start[cell], codes, empty)
        return Lit(k, frozenset(i for i, code in enumerate(self.values[k]) if self._holds(code, codes, empty)))

    def _holds(self, code: int, codes: frozenset[int], empty: bool) -> bool:
        if empty:
            return code == EMPTY
        return code != EMPTY and (code in codes or self.base[code] in codes)

    def _first_is(self, call: m.Call, codes: frozenset[int], bound: dict[int, Any]) -> Cond:
        """`first(x, d) is K`: some cell of the ray holds a K, every cell before it empty."""
        origin, direction = call.args
        cell = self.known_cell(origin, bound)
        if isinstance(direction, m.DirectionConst):
            way = direction.direction
        elif isinstance(direction, m.Local) and direction.slot in bound:
            way = bound[direction.slot]
        else:
            raise Inexpressible(direction.pos, "a direction that is only known during the search")
        options: list[Cond] = []
        before: list[Cond] = []
        for target in way.ray(cell):
            options.append(both([*before, self.holds(target, codes, False)]))
            before.append(self.holds(target, frozenset([EMPTY]), True))
        return either(options)

    def members(
        self, domain: m.Domain, slot: int, bound: dict[int, Any], pos: Pos
    ) -> list[tuple[Any, dict[int, Any], Cond]]:
        """A quantifier's or an aggregate's members: each value, the variables bound with it,
        and whether it is a member (the pieces of a kind: a member per cell, that is one
        where the cell holds one)."""
        if isinstance(domain, m.KindDomain) and domain.where is None and not self.puzzle.places:
            out: list[tuple[Any, dict[int, Any], Cond]] = []
            for cell in range(self.puzzle.cell_count):
                membership = self.holds(cell, domain.codes, False)
                if membership is not False:
                    out.append((cell, {**bound, slot: cell}, membership))
            return out
        return [(v, {**bound, slot: v}, True) for v in known_members(domain, bound, pos, self.puzzle.cell_count)]

    def _quantified(self, expr: m.Quantified, bound: dict[int, Any]) -> Cond:
        bodies: list[Cond] = []
        for _, inner, membership in self.members(expr.domain, expr.slot, bound, expr.pos):
            body = self.condition(expr.body, inner)
            if expr.quantifier == "every":
                bodies.append(either([negated(membership, self.sizes), body]))
            else:
                bodies.append(both([membership, body]))
        if expr.quantifier == "every":
            return both(bodies)
        some = either(bodies)
        return some if expr.quantifier == "some" else negated(some, self.sizes)

    def distinct(self, expr: m.AllDifferent, bound: dict[int, Any]) -> Cond:
        """`all different`: of the pieces on cells (an empty cell takes no key), or of numbers
        (each one thing's value, or known)."""
        keyed: dict[int, tuple[Any, ...]] = {}
        given: list[Any] = []
        if expr.domain is not None:
            for cell in dict.fromkeys(known_cells(expr.domain, bound, expr.pos, self.puzzle.cell_count)):
                k = self.thing_of_cell(cell)
                if k is None:
                    if self.start[cell] != EMPTY:
                        given.append(self.base[self.start[cell]])
                    continue
                keyed[k] = tuple(None if code == EMPTY else self.base[code] for code in self.values[k])
            return Distinct(keyed, tuple(given), False, expr.pos)
        for item in expr.items:
            number = self.number(item, bound)
            if isinstance(number, Affine) and number.known:
                given.append(number.constant)
                continue
            if not isinstance(number, Affine) or len(number.terms) != 1 or number.constant:
                raise Inexpressible(expr.pos, "`all different` of numbers that are not each one thing's")
            ((k, coefs),) = number.terms.items()
            if k in keyed:
                raise Inexpressible(expr.pos, "`all different` of one thing twice")
            keyed[k] = coefs
        return Distinct(keyed, tuple(given), True, expr.pos)


CALLS: dict[str, Callable[..., int]] = {"abs": abs, "min": min, "max": max}
SPLIT_MOST = 200_000  # a split's copies of its comparisons: past that, the `or` is left as it is


def _distinct_cells(puzzle: Puzzle) -> list[frozenset[int]]:
    """The cells of each `all different` of cells that the rules require as a whole (a piece of
    a rule): no two of them hold one piece."""
    out = []
    for expr, bound in rule_cuts(puzzle):
        if isinstance(expr, m.AllDifferent) and expr.domain is not None:
            try:
                out.append(frozenset(known_cells(expr.domain, bound, expr.pos, puzzle.cell_count)))
            except Inexpressible:
                continue
    return out


def _mentions_holding(expr: m.Expr) -> bool:
    """Whether a `holding(...)` stands anywhere in the expression (its domains included)."""
    if isinstance(expr, m.Call) and expr.name == "holding":
        return True
    return any(_mentions_holding(child) for child in m.children(expr))


def _replaced(expr: Any, target: m.Expr, cell: int | m.Expr) -> Any:
    """`expr` with the node `target` (the very object) replaced by the cell (a CellConst) or the node given."""
    if expr is target:
        return m.CellConst(target.pos, cell) if isinstance(cell, int) else cell
    fields: tuple[str, ...] | None = getattr(expr, "_fields", None)
    if isinstance(expr, tuple) and fields is not None:  # a node (a NamedTuple): each field replaced
        return type(expr)(*(_replaced(getattr(expr, f), target, cell) for f in fields))
    if isinstance(expr, tuple):
        return tuple(_replaced(item, target, cell) for item in expr)
    return expr


def _compares(cond: Cond, found: list[Cond] | None = None) -> list[Cond]:
    """The parts of a condition that are not literals or constants (comparisons, `all
    different`s), through `and`, `or`, `not`."""
    found = [] if found is None else found
    if isinstance(cond, (And, Or)):
        for part in cond.parts:
            if not isinstance(part, (bool, Lit)):
                _compares(part, found)
    elif isinstance(cond, Not):
        _compares(cond.part, found)
    elif not isinstance(cond, (bool, Lit)):
        found.append(cond)
    return found


@functools.lru_cache(maxsize=4096)
def _indices_by_value(coefs: tuple[int, ...]) -> dict[int, frozenset[int]]:
    """Each value among `coefs`, with the indices where it stands."""
    found: dict[int, list[int]] = {}
    for i, c in enumerate(coefs):
        found.setdefault(c, []).append(i)
    return {c: frozenset(indices) for c, indices in found.items()}


def _equal_at(coefs: tuple[int, ...], value: int, unequal: bool) -> frozenset[int]:
    """The indices where `coefs` holds `value` (`unequal`: where it does not). A rule split on a
    thing's values (`split`) asks this of the same coefficients once for each value: Numbrix
    asks it 12,000 times of 81 numbers, so each tuple's indices are looked up, not scanned."""
    equal = _indices_by_value(coefs).get(value, frozenset())
    return frozenset(range(len(coefs))) - equal if unequal else equal


Difference = tuple[tuple[int, ...] | None, dict[int, tuple[int, ...]], int]


def _difference(cond: Cond, k: int) -> Difference | None:
    """A comparison's left side less its right, where both are affine (None: else), as thing
    k's coefficients in it (None: it has none), the other things' and the constant."""
    if not (isinstance(cond, Compare) and isinstance(cond.left, Affine) and isinstance(cond.right, Affine)):
        return None
    difference = cond.left.plus(cond.right, -1)
    rest = {thing: coefs for thing, coefs in difference.terms.items() if thing != k}
    return difference.terms.get(k), rest, difference.constant


def _at(number: Affine, k: int, i: int) -> Affine:
    """The number with thing k at its i-th value."""
    if k not in number.terms:
        return number
    terms = {thing: coefs for thing, coefs in number.terms.items() if thing != k}
    return Affine(terms, number.constant + number.terms[k][i], number.pos)


def things_of(num: Num | Cond) -> set[int]:
    """The things a number or a condition reads."""
    if isinstance(num, bool):
        return set()
    if isinstance(num, Affine):
        return set(num.terms)
    if isinstance(num, Lit):
        return {num.thing}
    if isinstance(num, Distinct):
        return set(num.keys)
    if isinstance(num, LineRuns):
        return set().union(*(things_of(c) for c in num.cells))
    if isinstance(num, (And, Or)):
        return set().union(*(things_of(p) for p in num.parts))
    if isinstance(num, Not):
        return things_of(num.part)
    if isinstance(num, (Product, Compare)):
        return things_of(num.left) | things_of(num.right)
    if isinstance(num, Call):
        return set().union(*(things_of(a) for a in num.args))
    if isinstance(num, Plus):
        return set().union(*(things_of(p) for _, p in num.parts))
    return things_of(num.condition) | things_of(num.amount)
