"""The filters of a filling's sums and counts that do not depend on the filling, decided
before any engine reads the rule.

`sum(c.value for c in cells if c.row == r)`, with r fixed where the rule was cut, reads the
cells of row r only: `c.row` is where a cell lies, not what it holds. Read as written, the
aggregate runs over every cell of the board, so that an engine that asks what a piece of a
rule may read (the kernel's tables, the fill search's order of checks) sees all of them. Here
each member's filter is evaluated once, for the parts of it (cut along `and`) that read
nothing of the state: a member whose fixed part fails is dropped, the fixed parts that hold
are dropped from the filter, and the aggregate runs over the cells that remain, written out.
Every engine then sees a plain list of cells, and the same answer: a member that fails a
filter adds nothing to a count, a sum, a product, a least or a most.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ...model import expr as m
from ...model.puzzle import Puzzle
from ..operators import ARITHMETIC, COMPARISON

NOT_FIXED = object()  # a part that reads the state (or a variable not known here)


def resolve_fixed_filters(expr: m.Expr, bound: dict[int, Any], puzzle: Puzzle) -> m.Expr:
    """`expr` with every sum, count, least, most and product over fixed cells whose filter
    has parts fixed by `bound` (a cut's variables) run over the cells that pass them."""
    if _filtered(expr):
        found = _resolved(expr, bound, puzzle)
        if found is not None:
            expr = found
    return _rebuilt(expr, lambda child: resolve_fixed_filters(child, bound, puzzle))


def _filtered(expr: m.Expr) -> bool:
    """A sum, count, least, most or product with a filter: a node of a value over a collection
    (`slot`, `domain`) and a condition (whatever its name: every such node alike)."""
    fields = set(expr._fields)
    return {"slot", "domain", "value", "condition"} <= fields and getattr(expr, "condition", None) is not None


def _resolved(expr: Any, bound: dict[int, Any], puzzle: Puzzle) -> m.Expr | None:
    members = _fixed_cells(expr.domain, bound, puzzle)
    if members is None:
        return None
    parts = list(_conjuncts(expr.condition))
    kept_cells: list[int] = []
    unfixed: set[int] = set()  # the parts some member cannot decide: kept in the filter
    for cell in members:
        inner = {**bound, expr.slot: cell}
        values = [_fixed(part, inner, puzzle) for part in parts]
        if any(value is False for value in values):
            continue
        kept_cells.append(cell)
        unfixed.update(i for i, value in enumerate(values) if value is NOT_FIXED)
    if len(unfixed) == len(parts) and len(kept_cells) == len(members):
        return None  # nothing fixed: the rule as written
    rest = [part for i, part in enumerate(parts) if i in unfixed]
    condition: m.Expr | None = None
    for part in rest:
        condition = part if condition is None else m.Binary(part.pos, "and", condition, part, m.BOOL)
    resolved: m.Expr = expr._replace(domain=m.CellsDomain(tuple(kept_cells)), condition=condition)
    return resolved


def _fixed_cells(domain: m.Domain, bound: dict[int, Any], puzzle: Puzzle) -> list[int] | None:
    """The cells of a collection of cells known here (None: another collection, or one the
    state decides)."""
    if isinstance(domain, m.CellsDomain):
        if domain.cells is not None:
            return list(domain.cells)
        if domain.line is None:
            return list(range(puzzle.cell_count))
        if isinstance(domain.line, m.Local) and isinstance(bound.get(domain.line.slot), tuple):
            return list(bound[domain.line.slot])
    return None


def _conjuncts(expr: m.Expr) -> list[m.Expr]:
    if isinstance(expr, m.Binary) and expr.op == "and":
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


def _fixed(expr: m.Expr, bound: dict[int, Any], puzzle: Puzzle) -> Any:
    """The value of `expr` where it reads only the cells' positions, numbers and the variables
    of `bound` (NOT_FIXED elsewhere)."""
    if isinstance(expr, m.Const):
        return expr.value
    if isinstance(expr, m.Local) and expr.type == m.NUM and type(bound.get(expr.slot)) is int:
        return bound[expr.slot]
    if isinstance(expr, m.CellAttr) and puzzle.board is not None:
        cell = _cell(expr.cell, bound)
        if cell is None:
            return NOT_FIXED
        found = puzzle.board.cells[cell]
        value = {"row": found.row, "col": found.col, "name": found.name}[expr.name]
        return NOT_FIXED if value is None else value
    if isinstance(expr, m.Unary):
        inner = _fixed(expr.operand, bound, puzzle)
        if inner is NOT_FIXED:
            return NOT_FIXED
        return (not inner) if expr.op == "not" else -inner
    if isinstance(expr, m.Binary) and expr.op in ("and", "or"):
        left, right = _fixed(expr.left, bound, puzzle), _fixed(expr.right, bound, puzzle)
        decisive = expr.op == "or"  # the value of one side that decides the whole
        if left is decisive or right is decisive:
            return decisive
        return NOT_FIXED if NOT_FIXED in (left, right) else (not decisive)
    if isinstance(expr, m.Binary) and (expr.op in ARITHMETIC or expr.op in COMPARISON):
        left, right = _fixed(expr.left, bound, puzzle), _fixed(expr.right, bound, puzzle)
        if left is NOT_FIXED or right is NOT_FIXED or isinstance(left, bool) or isinstance(right, bool):
            return NOT_FIXED
        return (ARITHMETIC.get(expr.op) or COMPARISON[expr.op])(left, right)
    return NOT_FIXED


def _cell(expr: m.Expr, bound: dict[int, Any]) -> int | None:
    if isinstance(expr, m.CellConst):
        return expr.cell
    if isinstance(expr, m.Local) and expr.type == m.CELL and type(bound.get(expr.slot)) is int:
        return int(bound[expr.slot])
    return None


def _rebuilt(expr: m.Expr, change: Callable[[m.Expr], m.Expr]) -> m.Expr:
    """`expr` with `change` applied to each of its sub-expressions (not to its collection's)."""
    fields: dict[str, Any] = {}
    for name, value in zip(expr._fields, expr, strict=True):
        if name == "domain":
            continue
        if _is_expr(value):
            new = change(cast(m.Expr, value))
            if new is not value:
                fields[name] = new
        elif isinstance(value, tuple) and value and all(_is_expr(v) for v in value):
            items = tuple(change(cast(m.Expr, v)) for v in value)
            if any(a is not b for a, b in zip(items, value, strict=True)):
                fields[name] = items
    return expr._replace(**fields) if fields else expr


def _is_expr(value: object) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_fields") and hasattr(value, "pos")
