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
sum can still be tells which values can no longer fit. The pieces are read once, as terms of
the things (`compiler.fill_terms`, which CP-SAT's model is built from too); this module says
those terms in the kernel's arrays.

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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...compiler import CompiledPuzzle
from ...compiler.families.fill import FillFamily, Inexpressible, Instance
from ...compiler.fill_terms import (
    Affine,
    Call,
    Compare,
    Cond,
    Num,
    Plus,
    Product,
    Terms,
    Where,
)
from ...compiler.fill_terms import (
    Distinct as DistinctTerm,
)
from ...compiler.ranges import KERNEL_BOUND
from ...errors import NOWHERE, Pos
from .fill_clauses import clauses

if TYPE_CHECKING:
    import numpy as np

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


@dataclass
class FillModel:
    """The arrays of `kernel.fill`: per thing, its values; the constraints, linear and tabulated."""

    values: list[tuple[int, ...]]
    linear: list[Linear]
    distinct: list[Distinct]
    tables: list[Table]


BOUNDS: dict[str, tuple[int | None, int | None]] = {  # difference of the sides: None, no bound
    "==": (0, 0),
    "<=": (None, 0),
    "<": (None, -1),
    ">=": (0, None),
    ">": (1, None),
}


class Translation:
    """The pieces of a filling's rules (`FillFamily.instances`) as linear constraints and tables."""

    def __init__(self, compiled: CompiledPuzzle, family: FillFamily):
        self.compiled, self.family = compiled, family
        decoded = compiled.layout.decode(compiled.start)
        self.terms = Terms(compiled.puzzle, family, decoded.cells, decoded.counters)
        self.values = [var.values for var in family.vars]
        self.sizes = [len(v) for v in self.values]
        self.linear: list[Linear] = []
        self.distinct: list[Distinct] = []
        self.tables: list[Table] = []
        self.at: Pos = NOWHERE

    def model(self) -> FillModel:
        for k, values in enumerate(self.values):
            if len(values) > WORD:
                raise Inexpressible(self.family.vars[k].pos, f"a thing of more than {WORD} values")
        for instance in self.family.instances:
            self.at = instance.expr.pos
            try:
                self.require(self.terms.condition(instance.expr, instance.bound))
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
        position = self.family.position
        things = tuple(sorted(position[r] for r in instance.reads if r in position))
        sizes = [len(self.values[k]) for k in things]
        total = math.prod(sizes)  # Python's integers: the count of combinations never wraps
        if total > TABLE_MOST:
            many = f"{total:,}" if total < 10**15 else f"more than 10**{len(str(total)) - 1}"
            raise Inexpressible(
                why.pos, f"{why.what} over {len(things)} things ({many} combinations, more than {TABLE_MOST:,})"
            )
        import numpy as np  # here: the Python engine builds this model too, and most fillings need no table

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
    def require(self, cond: Cond) -> None:
        """A piece's terms as the kernel's constraints (Inexpressible: not linear, nor an `all
        different`, nor clauses)."""
        if isinstance(cond, Compare) and cond.op in BOUNDS:
            left, right = _affine(cond.left), _affine(cond.right)
            difference = left.plus(right, -1)
            low, high = BOUNDS[cond.op]
            shift = difference.constant
            self.add(_lists(difference), -SAFE if low is None else low - shift, SAFE if high is None else high - shift)
            return
        if isinstance(cond, Compare):  # !=, or a comparison of several things: not one bound
            raise Inexpressible(cond.pos, "this condition")
        if isinstance(cond, DistinctTerm):
            self._all_different(cond)
            return
        found = clauses(cond, self.sizes, self.at)
        for clause in found or ():  # each: at least one of its things takes one of its values
            terms = {k: [int(i in chosen) for i in range(self.sizes[k])] for k, chosen in clause.items()}
            self.add(terms, 1, SAFE)

    def add(self, terms: Coefs, lo: int, hi: int) -> None:
        self.linear.append(Linear({k: c for k, c in terms.items() if any(c)}, max(lo, -SAFE), min(hi, SAFE), self.at))

    def _all_different(self, cond: DistinctTerm) -> None:
        """No two of the things hold the same piece (or number); what the start gives takes
        its piece (number) from all of them."""
        given = list(cond.given)
        if len(set(given)) < len(given):
            self.add({}, 1, 0)  # two givens alike: no filling keeps the rule
            return
        keyed = cond.keys
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


def _affine(num: Num) -> Affine:
    """A number the kernel's linear constraints can say (Inexpressible: not linear)."""
    if isinstance(num, Affine):
        return num
    what = {
        Product: "a product of two unknowns",
        Call: "this number",
        Plus: "this number",
        Where: "a condition on more than one thing inside a count or a sum",
    }[type(num)]
    raise Inexpressible(num.pos, what)


def _lists(affine: Affine) -> Coefs:
    return {k: list(coefs) for k, coefs in affine.terms.items()}


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
