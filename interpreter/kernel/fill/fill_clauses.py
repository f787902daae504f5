"""Conditions of a filling's rules as clauses: "at least one of these things takes one of
these values", each a linear constraint (a sum of indicators at least 1) that the kernel's
fill search propagates like any other.

A condition made of conditions on one thing each (`c is queen`, `c is empty`, `c.value > 3`),
joined by `and`, `or`, `not`, quantifiers over fixed collections and over the pieces of a
kind, and `first(x, d) is K`, reads as a formula of literals (`compiler.fill_terms`:
negations are pushed down to the literals there), which is multiplied out into clauses here.
"No queen sees another", `no queen q: some d in king: first(q, d) is queen`, becomes one
clause for each cell, direction and distance: that cell holds no queen, or a cell between is
not empty, or the cell at that distance holds no queen.

A formula that would multiply out into more than CLAUSES_MOST clauses is refused (the next
engine answers it), and so is one that holds a comparison of several things or an `all
different` under `or` or `not` (the piece is tabulated instead, where it is small).
"""

from __future__ import annotations

from ...compiler.families.fill import Inexpressible
from ...compiler.fill_terms import And, Cond, Lit, Or
from ...errors import Pos

CLAUSES_MOST = 50_000

Clause = dict[int, frozenset[int]]  # thing -> the values (by index) that satisfy the clause


def clauses(formula: Cond, sizes: list[int], at: Pos) -> list[Clause] | None:
    """The formula as clauses, all of which hold exactly when it does (None: it always
    holds; an empty clause: it never does)."""
    found = _cnf(formula, sizes, at)
    return None if found is None else [c for c in found if not _always(c, sizes)]


def _cnf(formula: Cond, sizes: list[int], at: Pos) -> list[Clause] | None:
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
    if not isinstance(formula, Or):
        raise Inexpressible(at, "this condition")
    product: list[Clause] = [{}]
    for part in formula.parts:
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


def _cap(found: list[Clause], at: Pos) -> None:
    if len(found) > CLAUSES_MOST:
        raise Inexpressible(at, f"a condition of more than {CLAUSES_MOST:,} clauses")
