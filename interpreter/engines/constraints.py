"""A filling as a model of OR-tools' CP-SAT constraint solver, built through its API (the
spec is only data: no program text is made from it, nothing is evaluated).

Each open cell is one boolean for each piece it may hold (exactly one of them true); each
counter to find, an integer variable of its range; the start's pieces and the other counters
are constants. Every piece of every rule is read once as terms of the things
(`compiler.fill_terms`, the reading the kernel's fill model is made from too), and the terms
become constraints: an affine number a linear expression (a cell's contribution for each of
its pieces times its booleans; a counter's, where affine in its value, as that, else through
CP-SAT's element constraint), a condition on one thing the disjunction of its booleans (a
counter's, its value in a set), `and`, `or` and `not` reified booleans, a comparison a linear
constraint (reified where it sits under `and`, `or`, `not` or a quantifier), `all different`
of cells "at most one cell of each piece" and of numbers CP-SAT's own.

Every value the model makes (a product, an `abs`, a `min` or `max`, a part of a conditional
sum) is a variable whose domain is the value's interval as the compiler's range analysis
finds it (`compiler.ranges.terms_interval`), never a bound of the model's own: a domain
narrower than the values would make a solvable puzzle "unsolvable". A value that may pass
CPSAT_BOUND is refused with its position (CP-SAT computes in 64 bits, and checks that no sum
may pass 62), so is a product whose factors may pass CPSAT_FACTOR_BOUND (OR-tools' presolve is
wrong there), and so is a model OR-tools' own checker rejects.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..compiler import CompiledPuzzle
from ..compiler.families import TileFamily
from ..compiler.families.fill import FillFamily, Inexpressible, rule_cuts
from ..compiler.families.fixed_filters import resolve_fixed_filters
from ..compiler.fill_terms import (
    Affine,
    And,
    Call,
    Compare,
    Cond,
    Distinct,
    LineRuns,
    Lit,
    Not,
    Num,
    Or,
    Plus,
    Product,
    Terms,
    Where,
)
from ..compiler.ranges import CPSAT_BOUND, CPSAT_FACTOR_BOUND, Interval, terms_interval
from ..errors import NOWHERE, Pos
from ..model.puzzle import EMPTY


@dataclass
class Built:
    """The model, with what reads a solution back: each thing's variable or literals."""

    model: Any
    read: Callable[[Any], list[int]]  # the solver -> each thing's value, in the filling's order
    variables: list[Any]  # what the solution callback must be given values of
    objective: Any = None  # a filling's `maximize`/`minimize` number, as a linear expression (None: none)


class Model:
    """One filling's CP-SAT model (`build`)."""

    def __init__(self, compiled: CompiledPuzzle, family: FillFamily):
        from .solver_import import import_cp_model

        import_cp_model()  # without pandas: see solver_import
        from ortools.sat.python import cp_model

        self.cp = cp_model
        self.model = cp_model.CpModel()
        self.compiled, self.family = compiled, family
        self.puzzle = compiled.puzzle
        decoded = compiled.layout.decode(compiled.start)
        self.terms = Terms(self.puzzle, family, decoded.cells, decoded.counters)
        self.true = self.model.new_constant(1)
        self.false = self.model.new_constant(0)
        self.lits: dict[int, list[Any]] = {}  # an open cell's thing -> a boolean for each of its values
        self.numbers: dict[int, tuple[Any, list[int]] | None] = {}  # an open cell's thing -> its number (`_number`)
        self.distinct: list[Distinct] = []  # the `all different`s of cells required, said of numbers at the end
        self.ints: dict[int, Any] = {}  # a counter's thing -> its variable
        for k, var in enumerate(family.vars):
            if var.cell is not None:
                self.lits[k] = [self.model.new_bool_var(f"c{var.cell}_{code}") for code in var.values]
                self.model.add_exactly_one(self.lits[k])
            else:
                self._within(Interval(min(var.values), max(var.values)), var.pos)
                self.ints[k] = self.model.new_int_var(min(var.values), max(var.values), f"k{var.counter}")

    def build(self) -> Built:
        for expr, bound in rule_cuts(self.puzzle):
            self.require(self.terms.condition(expr, bound), expr.pos)
        for cond in self.distinct:
            self._numbers_different(cond)
        objective = None
        if self.puzzle.objective is not None:
            wanted = resolve_fixed_filters(self.puzzle.objective.value, {}, self.puzzle)
            objective = self._single(self.terms.number(wanted, {}))  # one variable: its value read exactly
        variables: list[Any] = [lit for lits in self.lits.values() for lit in lits]
        variables += list(self.ints.values())
        problem = self.model.validate()
        if problem:
            raise Inexpressible(NOWHERE, f"this puzzle as OR-tools checks its model ({problem.strip()})")
        values = [var.values for var in self.family.vars]

        def read(solver: Any) -> list[int]:
            out = []
            for k in range(len(values)):
                if k in self.lits:
                    out.append(next(v for v, lit in zip(values[k], self.lits[k], strict=True) if solver.value(lit)))
                else:
                    out.append(int(solver.value(self.ints[k])))
            return out

        return Built(self.model, read, variables, objective)

    # ---- constraints
    def require(self, cond: Cond, pos: Pos) -> None:
        """A piece that holds: comparisons and `all different` directly, the rest as a literal
        that must be true."""
        if cond is True:
            return
        if isinstance(cond, And):
            for part in cond.parts:
                self.require(part, pos)
            return
        if isinstance(cond, Compare):
            self.model.add(_compare(cond.op, self.linear(cond.left), self.linear(cond.right)))
            return
        if isinstance(cond, Distinct):
            self._all_different(cond)
            return
        if isinstance(cond, LineRuns):
            self._runs(cond)
            return
        if isinstance(cond, Or):  # a clause: no literal of its own
            self.model.add_bool_or([self.literal(part) for part in cond.parts])
            return
        self.model.add_bool_or([self.literal(cond)])

    def _runs(self, cond: LineRuns) -> None:
        """A line's runs as CP-SAT's automaton over its cells (1: the cell holds the kind):
        zeros, then each run's ones with at least one zero between two runs, then zeros."""
        if any(length <= 0 for length in cond.clue):
            self.model.add_bool_or([self.false])  # a run of no cells: no line has it
            return
        cells = [self.literal(c) for c in cond.cells]
        # state 0: before the first run; run j after t of its cells: starts[j] + t - 1; the
        # gap after run j (a zero read after it): gaps[j]
        starts, state = [], 1
        for length in cond.clue:
            starts.append(state)
            state += length
        gaps = list(range(state, state + len(cond.clue)))
        before = [0, *gaps]  # where run j may start from, zeros staying there
        transitions: list[tuple[int, int, int]] = []
        for j, length in enumerate(cond.clue):
            transitions += [(before[j], 0, before[j]), (before[j], 1, starts[j])]
            transitions += [(starts[j] + t - 1, 1, starts[j] + t) for t in range(1, length)]
            transitions.append((starts[j] + length - 1, 0, gaps[j]))
        last = before[len(cond.clue)]
        transitions.append((last, 0, last))
        finals = [last] + ([starts[-1] + cond.clue[-1] - 1] if cond.clue else [])
        self.model.add_automaton(cells, 0, finals, transitions)

    def _all_different(self, cond: Distinct) -> None:
        if cond.numbers:
            self.model.add_all_different([*(self._number_of(k, keys) for k, keys in cond.keys.items()), *cond.given])
            return
        keyed = self._by_key(cond)
        # as many cells as pieces, each cell holding one: each piece is on exactly one cell
        # (said so, CP-SAT also propagates from the pieces: where can 17 go?)
        full = len(keyed) == len(cond.keys) + len(cond.given) and all(None not in keys for keys in cond.keys.values())
        for key, lits in keyed.items():
            given = cond.given.count(key)
            if given > 1:
                self.model.add_bool_or([self.false])  # two givens alike: no solution
            elif given == 1:
                for lit in lits:
                    self.model.add(lit == 0)
            elif full:
                self.model.add_exactly_one(lits)
            else:
                self.model.add_at_most_one(lits)
        self.distinct.append(cond)

    def _numbers_different(self, cond: Distinct) -> None:
        """An `all different` of cells said again of their numbers (`_number`), where a sum
        reads each of them as its number (else the booleans alone say it: a Latin square's
        model stays as it was) and each piece it compares has a number of its own (different
        pieces, different numbers: the same constraint), so that CP-SAT reasons on the
        numbers' sums and differences at once."""
        if any(self.numbers.get(k) is None for k in cond.keys):
            return
        terms = self.terms
        keys = {key for keys in cond.keys.values() for key in keys} | set(cond.given)
        numbered = {key: terms.piece_value[key] if key is not None else None for key in keys}
        if len(cond.keys) < 2 or None in numbered.values() or len(set(numbered.values())) != len(numbered):
            return
        numbers = [self._number(k) for k in cond.keys]
        if any(number is None for number in numbers):
            return
        given = [numbered[key] for key in cond.given]
        self.model.add_all_different([number[0] for number in numbers if number is not None] + given)

    def _by_key(self, cond: Distinct) -> dict[Any, list[Any]]:
        """Each piece an `all different` of cells compares, with the booleans that a cell holds it."""
        found: dict[Any, list[Any]] = {key: [] for key in cond.given}
        for k, keys in cond.keys.items():
            for i, key in enumerate(keys):
                if key is not None:
                    found.setdefault(key, []).append(self.lits[k][i])
        return found

    def _number_of(self, k: int, numbers: Sequence[int]) -> Any:
        return self.linear(Affine({k: tuple(numbers)}))

    # ---- literals
    def literal(self, cond: Cond) -> Any:
        """A boolean variable (or constant) equal to the condition."""
        if isinstance(cond, bool):
            return self.true if cond else self.false
        if isinstance(cond, Lit):
            return self._lit(cond)
        if isinstance(cond, And):
            return self._and([self.literal(p) for p in cond.parts])
        if isinstance(cond, Or):
            return self._or([self.literal(p) for p in cond.parts])
        if isinstance(cond, Not):
            return self._not(self.literal(cond.part))
        if isinstance(cond, Compare):
            return self._reified(_compare(cond.op, self.linear(cond.left), self.linear(cond.right)))
        if isinstance(cond, LineRuns):
            raise Inexpressible(cond.pos, "runs() under `or`, `not`, `!=` or `some` (its automaton is not reified)")
        return self._all_different_literal(cond)

    def _lit(self, lit: Lit) -> Any:
        """Thing `lit.thing` takes one of the values of `lit.values`."""
        lits = self.lits.get(lit.thing)
        if lits is not None:
            taken, left = len(lit.values), len(lits) - len(lit.values)
            if taken == 1 and left >= 1:  # one value: its boolean (the usual literal of a split rule)
                return lits[next(iter(lit.values))]
            if left == 1 and taken >= 2:  # all values but one: that one's boolean, negated
                return lits[next(iter(_every(len(lits)) - lit.values))].Not()
            if left < taken:  # exactly one value is taken: "none of the others"
                return self._and([lits[i].Not() for i in sorted(_every(len(lits)) - lit.values)])
            return self._or([lits[i] for i in sorted(lit.values)])
        values = self.family.vars[lit.thing].values
        domain = self.cp.Domain.from_values([values[i] for i in sorted(lit.values)])
        literal = self.model.new_bool_var("")
        variable = self.ints[lit.thing]
        self.model.add_linear_expression_in_domain(variable, domain).only_enforce_if(literal)
        self.model.add_linear_expression_in_domain(variable, domain.complement()).only_enforce_if(literal.Not())
        return literal

    def _all_different_literal(self, cond: Distinct) -> Any:
        """`all different` where it may also fail (under `or`, `not`, a quantifier)."""
        if cond.numbers:
            numbers = [*(self._number_of(k, keys) for k, keys in cond.keys.items()), *cond.given]
            pairs = [
                self._reified(numbers[i] != numbers[j]) for i in range(len(numbers)) for j in range(i + 1, len(numbers))
            ]
            return self._and(pairs)
        parts = []
        for key, lits in self._by_key(cond).items():
            room = 1 - cond.given.count(key)
            if lits or room < 0:
                parts.append(self._reified(sum(lits) <= room) if lits else self.false)
        return self._and(parts)

    # ---- numbers
    def linear(self, number: Num) -> Any:
        """A linear expression (or an integer) equal to the number; every value it may take
        fits CP-SAT's (else Inexpressible)."""
        reach = self._within(terms_interval(number), number.pos)
        if isinstance(number, Affine):
            total: Any = number.constant
            for k, coefs in number.terms.items():
                total = total + self._contribution(k, coefs)
            return total
        if isinstance(number, Product):
            for factor in (number.left, number.right):
                self._factor(terms_interval(factor), factor.pos)
            product = self._variable(reach)
            self.model.add_multiplication_equality(product, [self._single(number.left), self._single(number.right)])
            return product
        if isinstance(number, Call):
            args = [self.linear(a) for a in number.args]
            result = self._variable(reach)
            if number.name == "abs":
                self.model.add_abs_equality(result, args[0])
            elif number.name == "min":
                self.model.add_min_equality(result, args)
            else:
                self.model.add_max_equality(result, args)
            return result
        if isinstance(number, Plus):
            total = 0
            for sign, part in number.parts:
                total = total + sign * self.linear(part)
            return total
        assert isinstance(number, Where)
        taken = self.literal(number.condition)
        amount = number.amount
        if isinstance(amount, Affine) and amount.known:
            return amount.constant * taken if taken is not self.true else amount.constant
        part = self._variable(reach)
        self.model.add(part == self.linear(amount)).only_enforce_if(taken)
        self.model.add(part == 0).only_enforce_if(self._not(taken))
        return part

    def _contribution(self, k: int, coefs: Sequence[int]) -> Any:
        """What thing k adds: each of its values' contribution."""
        if k in self.lits:
            number = self._number(k)
            line = _line_through(coefs, number[1]) if number is not None else None
            if number is not None and line is not None:
                return line[0] * number[0] + line[1]  # affine in the cell's number (a sum of digits)
            return sum(c * lit for c, lit in zip(coefs, self.lits[k], strict=True) if c)
        values = self.family.vars[k].values
        variable = self.ints[k]
        if len(values) == 1:
            return coefs[0]
        line = _line_through(coefs, values)
        if line is not None:
            return line[0] * variable + line[1]  # affine in the counter's value (the usual case)
        target = self._variable(Interval(min(coefs), max(coefs)))
        self.model.add_element(variable - values[0], list(coefs), target)  # a counter's values are a range
        return target

    def _number(self, k: int) -> tuple[Any, list[int]] | None:
        """Open cell k's number as an integer variable equal to its booleans' numbers, with
        the number of each of its values (None: a value with no number, or a cell of one
        number). A sum of cells' numbers and an `all different` of them are said of these
        integers too, which CP-SAT propagates together (its bounds and its all-different
        reasoning): a Kakuro's runs take 37,696 branches as sums of booleans and none as
        sums of integers."""
        if k not in self.numbers:
            terms = self.terms
            codes = self.family.vars[k].values
            numbers = [terms.piece_value[terms.base[code]] if code != EMPTY else None for code in codes]
            known = [n for n in numbers if n is not None]
            self.numbers[k] = None
            if len(known) == len(numbers) and len(set(known)) > 1 and max(map(abs, known)) < CPSAT_BOUND:
                variable = self.model.new_int_var_from_domain(self.cp.Domain.from_values(sorted(set(known))), "")
                self.model.add(variable == sum(n * lit for n, lit in zip(known, self.lits[k], strict=True) if n))
                self.numbers[k] = (variable, known)
        return self.numbers[k]

    def _single(self, number: Num) -> Any:
        """The number as one variable (or an integer): what a product multiplies."""
        found = self.linear(number)
        if isinstance(found, (int, self.cp.IntVar)):
            return found
        variable = self._variable(terms_interval(number))
        self.model.add(variable == found)
        return variable

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

    # ---- booleans
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
        if any(x is self.false for x in literals):
            return self.false
        literals = [x for x in literals if x is not self.true]
        if not literals:
            return self.true
        if len(literals) == 1:
            return literals[0]
        result = self.model.new_bool_var("")
        self.model.add_bool_and(literals).only_enforce_if(result)
        self.model.add_bool_or([x.Not() for x in literals]).only_enforce_if(result.Not())
        return result

    def _or(self, literals: list[Any]) -> Any:
        if len(literals) == 1:  # the literal itself, not its negation negated
            return literals[0]
        return self._not(self._and([self._not(x) for x in literals]))


COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


@functools.lru_cache(maxsize=64)
def _every(size: int) -> frozenset[int]:
    """The indices of a thing's `size` values."""
    return frozenset(range(size))


def _line_through(coefs: Sequence[int], values: Sequence[int]) -> tuple[int, int] | None:
    """(slope, offset), integers, with each coefficient `slope * value + offset` of its value
    (None: there is none, or the values are all one)."""
    j = next((j for j in range(1, len(values)) if values[j] != values[0]), None)
    if j is None:
        return None
    slope, rest = divmod(coefs[j] - coefs[0], values[j] - values[0])
    offset = coefs[0] - slope * values[0]
    if rest or any(c != slope * v + offset for c, v in zip(coefs, values, strict=True)):
        return None
    return slope, offset


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
    from .solver_import import import_cp_model

    import_cp_model()  # without pandas: see solver_import
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
