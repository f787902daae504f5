"""A filling as a model of OR-tools' CP-SAT constraint solver, built through its API (the
spec is only data: no program text is made from it, nothing is evaluated).

Each open cell is one boolean for each piece it may hold (exactly one of them true); each
counter to find, an integer variable of its range; the start's pieces and the other counters
are constants. Every piece of every rule (cut as the fill search cuts them) becomes a
constraint: `all different` of cells as "at most one cell of each piece", of numbers as
CP-SAT's own; comparisons, sums, counts and arithmetic as linear constraints, reified where
they sit under `and`, `or`, `not` or a quantifier; quantifiers over fixed collections (lines,
cells, ranges) as one constraint per member, over the pieces of a kind as one per cell that
may hold one; `first(x, d) is KIND` as the disjunction over the ray. What the model cannot
say (a piece's place in a place, a cell computed during the search) is refused with its
position, and the other engines answer.

Every value the model makes (a product, an `abs`, a `min` or `max`, a part of a conditional
sum) is a variable whose domain is the value's interval as the compiler's range analysis
finds it (`compiler.ranges`), never a bound of the model's own: a domain narrower than the
values would make a solvable puzzle "unsolvable". A value that may pass CPSAT_BOUND is
refused with its position (CP-SAT computes in 64 bits, and checks that no sum may pass 62),
and so is a model OR-tools' own checker rejects.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..compiler import CompiledPuzzle
from ..compiler.families import TileFamily
from ..compiler.families.fill import FillFamily, Inexpressible, known_cell, known_cells, known_members, rule_cuts
from ..compiler.ranges import CPSAT_BOUND, CPSAT_FACTOR_BOUND, Interval, Ranges
from ..errors import NOWHERE, Pos
from ..model import expr as m
from ..model.puzzle import EMPTY


@dataclass
class Built:
    """The model, with what reads a solution back: each thing's variable or literals."""

    model: Any
    read: Callable[[Any], list[int]]  # the solver -> each thing's value, in the filling's order
    variables: list[Any]  # what the solution callback must be given values of


class Model:
    """One filling's CP-SAT model (`build`)."""

    def __init__(self, compiled: CompiledPuzzle, family: FillFamily):
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.compiled, self.family = compiled, family
        puzzle = compiled.puzzle
        self.puzzle = puzzle
        self.start = compiled.layout.decode(compiled.start)
        self.values: list[int | None] = [None, *(p.value for p in puzzle.pieces)]  # by piece code
        self.base = [part.piece for part in puzzle.parts]
        self.cell_lits: dict[int, dict[int, Any]] = {}  # open cell -> code -> literal
        self.counter_vars: dict[int, Any] = {}
        self.true = self.model.new_constant(1)
        self.false = self.model.new_constant(0)
        self.ranges = Ranges(puzzle)
        for var in family.vars:
            if var.cell is None:
                self._within(Interval(min(var.values), max(var.values)), var.pos)
            if var.cell is not None:
                lits = {code: self.model.new_bool_var(f"c{var.cell}_{code}") for code in var.values}
                self.model.add_exactly_one(lits.values())
                self.cell_lits[var.cell] = lits
            else:
                assert var.counter is not None
                self.counter_vars[var.counter] = self.model.new_int_var(
                    min(var.values), max(var.values), f"k{var.counter}"
                )

    # ---- reading the filling back
    def build(self) -> Built:
        for expr, bound in rule_cuts(self.puzzle):
            self.require(expr, bound)
        variables: list[Any] = [lit for lits in self.cell_lits.values() for lit in lits.values()]
        variables += list(self.counter_vars.values())
        problem = self.model.validate()
        if problem:
            raise Inexpressible(NOWHERE, f"this puzzle as OR-tools checks its model ({problem.strip()})")

        def read(solver: Any) -> list[int]:
            out = []
            for var in self.family.vars:
                if var.cell is not None:
                    out.append(next(code for code, lit in self.cell_lits[var.cell].items() if solver.value(lit)))
                else:
                    out.append(int(solver.value(self.counter_vars[var.counter])))  # type: ignore[index]
            return out

        return Built(self.model, read, variables)

    # ---- constraints
    def require(self, expr: m.Expr, bound: dict[int, Any]) -> None:
        """Add `expr` as a constraint that holds (linear comparisons directly, the rest as a
        literal that must be true)."""
        if isinstance(expr, m.Binary) and expr.op in COMPARISONS and expr.left.type == m.NUM:
            left, right = self.number(expr.left, bound), self.number(expr.right, bound)
            self.model.add(_compare(expr.op, left, right))
            return
        if isinstance(expr, m.AllDifferent):
            self._all_different(expr, bound)
            return
        self.model.add_bool_or([self.literal(expr, bound)])

    def _all_different(self, expr: m.AllDifferent, bound: dict[int, Any]) -> None:
        if expr.domain is None:
            self.model.add_all_different([self.number(item, bound) for item in expr.items])
            return
        cells = self.cells_of(expr.domain, bound, expr.pos)
        pieces: dict[int, list[Any]] = {}
        for cell in cells:
            for code, lit in self.piece_lits(cell).items():
                if code != EMPTY:
                    pieces.setdefault(self.base[code], []).append(lit)
        for lits in pieces.values():
            constants = [lit for lit in lits if isinstance(lit, bool)]
            if sum(constants) > 1:
                self.model.add_bool_or([self.false])  # two givens alike: no solution
            self.model.add_at_most_one([self._lit(lit) for lit in lits if lit is not False])

    def _lit(self, value: Any) -> Any:
        if value is True:
            return self.true
        if value is False:
            return self.false
        return value

    def piece_lits(self, cell: int) -> dict[int, Any]:
        """Each code the cell may hold, with the literal (or True, for a given) that it does."""
        if cell in self.cell_lits:
            return self.cell_lits[cell]
        return {self.start.cells[cell]: True}

    def literal(self, expr: m.Expr, bound: dict[int, Any]) -> Any:
        """A boolean variable (or constant) equal to the condition."""
        if isinstance(expr, m.Const):
            return self.true if expr.value else self.false
        if isinstance(expr, m.Unary) and expr.op == "not":
            return self._not(self.literal(expr.operand, bound))
        if isinstance(expr, m.Binary) and expr.op in ("and", "or"):
            parts = [self.literal(expr.left, bound), self.literal(expr.right, bound)]
            return self._and(parts) if expr.op == "and" else self._or(parts)
        if isinstance(expr, m.Binary) and expr.op in COMPARISONS and expr.left.type == m.NUM:
            return self._reified(_compare(expr.op, self.number(expr.left, bound), self.number(expr.right, bound)))
        if isinstance(expr, m.Binary) and expr.op in ("==", "!=") and expr.left.type == m.BOOL:
            same = self._same(self.literal(expr.left, bound), self.literal(expr.right, bound))
            return same if expr.op == "==" else self._not(same)
        if isinstance(expr, m.IsKind):
            return self._is(expr.piece, expr.codes, bound)
        if isinstance(expr, m.IsEmpty) and expr.operand.type in (m.CELL, m.PIECE):
            return self._is(expr.operand, frozenset([EMPTY]), bound, empty=True)
        if isinstance(expr, m.Quantified):
            return self._quantified(expr, bound)
        if isinstance(expr, m.AllDifferent):
            return self._all_different_literal(expr, bound)
        raise Inexpressible(expr.pos, "this condition")

    def _all_different_literal(self, expr: m.AllDifferent, bound: dict[int, Any]) -> Any:
        """`all different` where it may also fail (under `or`, `not`, a quantifier)."""
        if expr.domain is None:
            numbers = [self.number(item, bound) for item in expr.items]
            pairs = [
                self._reified(numbers[i] != numbers[j]) for i in range(len(numbers)) for j in range(i + 1, len(numbers))
            ]
            return self._and(pairs)
        cells = self.cells_of(expr.domain, bound, expr.pos)
        pieces: dict[int, list[Any]] = {}
        for cell in cells:
            for code, lit in self.piece_lits(cell).items():
                if code != EMPTY:
                    pieces.setdefault(self.base[code], []).append(self._lit(lit))
        parts = [self._reified(sum(lits) <= 1) for lits in pieces.values() if len(lits) > 1]
        return self._and(parts)

    def _is(self, piece: m.Expr, codes: frozenset[int], bound: dict[int, Any], empty: bool = False) -> Any:
        """The cell a piece (or a cell) expression names holds one of `codes`."""
        if isinstance(piece, m.Call) and piece.name == "first" and not empty:
            return self._first_is(piece, codes, bound)
        cell = self.cell_of(piece, bound)
        lits = [self._lit(lit) for code, lit in self.piece_lits(cell).items() if _holds(code, codes, empty, self.base)]
        return self._or(lits) if lits else self.false

    def _first_is(self, call: m.Call, codes: frozenset[int], bound: dict[int, Any]) -> Any:
        """`first(x, d) is KIND`: some cell of the ray holds one, and every cell before it is empty."""
        origin, direction = call.args
        cell = self.cell_of(origin, bound)
        way = self._constant(direction, bound)
        ray = way.ray(cell)
        options = []
        for k, target in enumerate(ray):
            before = [self._is(m.CellConst(call.pos, c), frozenset([EMPTY]), bound, empty=True) for c in ray[:k]]
            options.append(self._and([*before, self._is(m.CellConst(call.pos, target), codes, bound)]))
        return self._or(options) if options else self.false

    def _quantified(self, expr: m.Quantified, bound: dict[int, Any]) -> Any:
        domain = expr.domain
        if isinstance(domain, m.KindDomain) and domain.where is None and not self.puzzle.places:
            cells = range(self.puzzle.cell_count)
            parts = []
            for cell in cells:
                member = self._is(m.CellConst(expr.pos, cell), domain.codes, bound)
                if member is self.false:
                    continue
                body = self.literal(expr.body, {**bound, expr.slot: cell})
                if expr.quantifier == "every":
                    parts.append(self._or([self._not(member), body]))
                elif expr.quantifier == "no":
                    parts.append(self._not(self._and([member, body])))
                else:
                    parts.append(self._and([member, body]))
            return self._or(parts) if expr.quantifier == "some" else self._and(parts)
        values = self._members(domain, bound, expr.pos)
        bodies = [self.literal(expr.body, {**bound, expr.slot: v}) for v in values]
        if expr.quantifier == "every":
            return self._and(bodies)
        if expr.quantifier == "no":
            return self._not(self._or(bodies))
        return self._or(bodies)

    # ---- numbers
    def _within(self, interval: Interval, pos: Pos) -> Interval:
        """`interval`, where every value of it fits CP-SAT's (else Inexpressible)."""
        if interval.magnitude >= CPSAT_BOUND:
            reach = interval.high if abs(interval.high) >= abs(interval.low) else interval.low
            raise Inexpressible(
                pos,
                f"a value that may reach {reach:,} (its model takes values below 2**{CPSAT_BOUND.bit_length() - 1}; "
                "the Python engine has no bound)",
            )
        return interval

    def _factor(self, interval: Interval, pos: Pos) -> None:
        """A factor of a product of two unknowns, where CP-SAT answers it rightly (see
        compiler.ranges.CPSAT_FACTOR_BOUND; else Inexpressible)."""
        if interval.magnitude >= CPSAT_FACTOR_BOUND:
            reach = interval.high if abs(interval.high) >= abs(interval.low) else interval.low
            raise Inexpressible(
                pos,
                f"a product of a factor that may reach {reach:,} (OR-tools' presolve is wrong past "
                f"2**{CPSAT_FACTOR_BOUND.bit_length() - 1}: it proved a solvable product unsolvable)",
            )

    def _variable(self, interval: Interval) -> Any:
        """A new variable that may take every value of `interval` (as the range analysis found it)."""
        return self.model.new_int_var(interval.low, interval.high, "")

    def number(self, expr: m.Expr, bound: dict[int, Any]) -> Any:
        """A linear expression (or an integer) equal to the number; every value it may take
        fits CP-SAT's (else Inexpressible)."""
        reach = self._within(self.ranges.interval(expr, bound), expr.pos)
        if isinstance(expr, m.Const) and isinstance(expr.value, int):
            return int(expr.value)
        if isinstance(expr, m.Local) and expr.slot in bound and isinstance(bound[expr.slot], int):
            return bound[expr.slot]
        if isinstance(expr, m.CounterValue):
            if expr.counter in self.counter_vars:
                return self.counter_vars[expr.counter]
            return self.start.counters[expr.counter]
        if isinstance(expr, (m.ValueOf, m.PieceAttr)) and (isinstance(expr, m.ValueOf) or expr.name == "value"):
            cell = self.cell_of(expr.piece, bound)
            terms = []
            for code, lit in self.piece_lits(cell).items():
                value = self.values[self.base[code]] if code else None
                if value is None:
                    raise Inexpressible(expr.pos, "the number of a cell that may hold no numbered piece")
                terms.append(value * self._lit(lit) if lit is not True else value)
            return sum(terms)
        if isinstance(expr, m.CellAttr) and self.puzzle.board is not None:
            return _cell_attribute(self.puzzle, self.cell_of(expr.cell, bound), expr.name)
        if isinstance(expr, m.Unary) and expr.op == "-":
            return -self.number(expr.operand, bound)
        if isinstance(expr, m.Binary) and expr.op in ("+", "-"):
            left, right = self.number(expr.left, bound), self.number(expr.right, bound)
            return left + right if expr.op == "+" else left - right
        if isinstance(expr, m.Binary) and expr.op == "*":
            left, right = self.number(expr.left, bound), self.number(expr.right, bound)
            if isinstance(left, int) or isinstance(right, int):
                return left * right
            for factor in (expr.left, expr.right):
                self._factor(self.ranges.interval(factor, bound), factor.pos)
            product = self._variable(reach)
            self.model.add_multiplication_equality(product, [left, right])
            return product
        if isinstance(expr, m.Aggregate) and expr.function in ("count", "sum"):
            return self._aggregate(expr, bound)
        if isinstance(expr, m.Call) and expr.name in ("abs", "min", "max"):
            args = [self.number(a, bound) for a in expr.args]
            result = self._variable(reach)
            if expr.name == "abs":
                self.model.add_abs_equality(result, args[0])
            elif expr.name == "min":
                self.model.add_min_equality(result, args)
            else:
                self.model.add_max_equality(result, args)
            return result
        raise Inexpressible(expr.pos, "this number")

    def _aggregate(self, expr: m.Aggregate, bound: dict[int, Any]) -> Any:
        domain = expr.domain
        if isinstance(domain, m.KindDomain) and domain.where is None and not self.puzzle.places:
            members = [
                (c, self._is(m.CellConst(expr.pos, c), domain.codes, bound)) for c in range(self.puzzle.cell_count)
            ]
        else:
            members = [(v, self.true) for v in self._members(domain, bound, expr.pos)]
        total: Any = 0
        for value, member in members:
            if member is self.false:
                continue
            inner = {**bound, expr.slot: value}
            taken = member if expr.condition is None else self._and([member, self.literal(expr.condition, inner)])
            if expr.function == "count":
                total = total + taken
            else:
                assert expr.value is not None
                amount = self.number(expr.value, inner)
                if taken is self.true:
                    total = total + amount
                else:
                    values = self.ranges.interval(expr.value, inner)
                    part = self._variable(Interval(min(0, values.low), max(0, values.high)))
                    self.model.add(part == amount).only_enforce_if(taken)
                    self.model.add(part == 0).only_enforce_if(self._not(taken))
                    total = total + part
        return total

    # ---- cells and collections
    def cell_of(self, expr: m.Expr, bound: dict[int, Any]) -> int:
        return known_cell(expr, bound)

    def cells_of(self, domain: m.Domain, bound: dict[int, Any], pos: Pos) -> list[int]:
        return known_cells(domain, bound, pos, self.puzzle.cell_count)

    def _members(self, domain: m.Domain, bound: dict[int, Any], pos: Pos) -> list[Any]:
        return known_members(domain, bound, pos, self.puzzle.cell_count)

    def _constant(self, expr: m.Expr, bound: dict[int, Any]) -> Any:
        if isinstance(expr, m.DirectionConst):
            return expr.direction
        if isinstance(expr, m.Local) and expr.slot in bound:
            return bound[expr.slot]
        raise Inexpressible(expr.pos, "a direction that is only known during the search")

    # ---- literals
    def _reified(self, constraint: Any) -> Any:
        """A literal true exactly when the linear constraint holds."""
        if isinstance(constraint, bool):
            return self.true if constraint else self.false
        literal = self.model.new_bool_var("")
        self.model.add(constraint).only_enforce_if(literal)
        expression = self.cp.LinearExpr.weighted_sum(constraint.vars, constraint.coeffs) + constraint.offset
        self.model.add_linear_expression_in_domain(expression, constraint.bounds.complement()).only_enforce_if(
            literal.Not()
        )
        return literal

    def _not(self, literal: Any) -> Any:
        if literal is self.true:
            return self.false
        if literal is self.false:
            return self.true
        return literal.Not()

    def _and(self, literals: list[Any]) -> Any:
        literals = [self._lit(x) for x in literals]
        if any(x is self.false for x in literals):
            return self.false
        literals = [x for x in literals if x is not self.true]
        if not literals:
            return self.true
        if len(literals) == 1:
            return literals[0]
        result = self.model.new_bool_var("")
        self.model.add_bool_and(literals).only_enforce_if(result)
        self.model.add_bool_or([x.Not() if x is not self.true else self.false for x in literals]).only_enforce_if(
            result.Not()
        )
        return result

    def _or(self, literals: list[Any]) -> Any:
        return self._not(self._and([self._not(self._lit(x)) for x in literals]))

    def _same(self, a: Any, b: Any) -> Any:
        return self._or([self._and([a, b]), self._and([self._not(a), self._not(b)])])


COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def _cell_attribute(puzzle: Any, cell: int, name: str) -> int:
    """A known cell's row or column (0 where the board has none)."""
    found = puzzle.board.cells[cell]
    return int((found.row if name == "row" else found.col) or 0)


def _compare(op: str, left: Any, right: Any) -> Any:
    if op == "==":
        return left == right
    if op == "!=":
        return left != right
    if op == "<":
        return left < right
    if op == "<=":
        return left <= right
    if op == ">":
        return left > right
    return left >= right


def _holds(code: int, codes: frozenset[int], empty: bool, base: list[int]) -> bool:
    """Whether a cell holding `code` holds one of `codes` (pieces by their code; `empty`:
    the codes are the empty code alone)."""
    if empty:
        return code == EMPTY
    return code != EMPTY and (code in codes or base[code] in codes)


_BUILT: weakref.WeakKeyDictionary[CompiledPuzzle, Built | Inexpressible] = weakref.WeakKeyDictionary()


def built(compiled: CompiledPuzzle) -> Built:
    """The logic puzzle's model (Inexpressible: a piece of a rule it cannot say, and why).
    Made once per puzzle: the plan asks whether the solver can say the rules, then the
    search runs on the same model (a solve leaves the model as it was)."""
    if compiled not in _BUILT:
        family = compiled.filling
        assert family is not None
        try:
            _BUILT[compiled] = build(compiled, family)
        except Inexpressible as exc:
            _BUILT[compiled] = exc
    found = _BUILT[compiled]
    if isinstance(found, Inexpressible):
        raise found.with_traceback(None)
    return found


def build(compiled: CompiledPuzzle, family: FillFamily | TileFamily) -> Built:
    if isinstance(family, TileFamily):
        return tiling(family)
    return Model(compiled, family).build()


def tiling(family: TileFamily) -> Built:
    """A tiling as an exact cover: a boolean per placement, exactly one true over each cell
    to cover and over each piece. A solution reads back as the placements chosen."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    chosen = [model.new_bool_var(f"p{i}") for i in range(len(family.placements))]
    rows, columns = family.exact_cover()
    by_column: list[list[Any]] = [[] for _ in range(columns)]
    for literal, row in zip(chosen, rows, strict=True):
        for column in row:
            by_column[column].append(literal)
    for literals in by_column:
        model.add_exactly_one(literals)

    def read(solver: Any) -> list[int]:
        return [i for i, literal in enumerate(chosen) if solver.value(literal)]

    return Built(model, read, chosen)
