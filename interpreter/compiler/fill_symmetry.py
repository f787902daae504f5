"""A filling's declared symmetries checked before the search, on its ground rules.

A permutation of cells (with a renaming of pieces) is a symmetry of a filling's solutions
where it maps the givens onto themselves and the set of ground conditions the rules make on
the board (each rule cut into its pieces, each piece read as terms of the open things:
`fill_terms`) onto itself: the image of a filling that keeps every condition then keeps the
image of each, which is a condition the rules state. A symmetry checked so serves counting
up to symmetry with no solution looked at.

The check is sufficient, not necessary: rules written unevenly may still be symmetric (one
queen on each row, none seeing another: a quarter turn maps a row's rule to a column's, which
no rule states and every solution keeps). So a piece whose image no rule states, or a rule
the check cannot read as terms (a cell known only during the search, a safety rule kept in
reading order), leaves the symmetry to be checked on each solution found (`broken_on`: a
solution whose image breaks a piece of a rule refuses it, naming the piece), and a listing
cut short is not sorted by it. What is refused before the search is sure: a symmetry that
moves a given onto a given of another piece.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from ..errors import Diagnostic, Pos, SpecError
from ..model.puzzle import EMPTY, Puzzle, Symmetry
from .families.fill import FillFamily, Inexpressible, rule_cuts
from .fill_terms import (
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
    things_of,
)

Relabel = Callable[[int, int], tuple[int, int]]  # (thing, value index) -> its image


class _Unsplit(Terms):
    """The terms as the rules state them: an `or` is not split on a thing's values (the thing
    split on depends on how the things are numbered, which a permutation changes)."""

    def split(self, cond: Cond) -> Cond:
        return cond


@dataclass(frozen=True)
class _Piece:
    """A ground condition of the rules, with the rule piece it comes from."""

    cond: Cond
    pos: Pos


def check_fill_symmetries(
    puzzle: Puzzle, family: FillFamily, start_cells: Sequence[int], start_counters: Sequence[int]
) -> str | None:
    """None where every declared symmetry maps the givens and the ground rules onto
    themselves; else why the check could not show it (a rule it cannot read, a rule whose
    image no rule states): the symmetries are then checked on the solutions found
    (`broken_on`). A symmetry that moves a given onto a given of another piece is refused
    (SpecError) at its declaration."""
    errors = []
    for sym in puzzle.symmetries:
        moved = _moves_givens(puzzle, family, start_cells, sym)
        if moved is not None:
            errors.append(Diagnostic(sym.pos, f"'{sym.name}' is not a symmetry of this puzzle: {moved}", HINT))
    if errors:
        raise SpecError(errors)
    if puzzle.safety:
        return "safety rules are kept in reading order, which a permutation of the cells does not keep"
    terms = _Unsplit(puzzle, family, start_cells, start_counters)
    pieces: list[_Piece] = []
    try:
        for expr, bound in rule_cuts(puzzle):
            for part in _conjuncts(terms.condition(expr, bound)):
                pieces.append(_Piece(part, expr.pos))
    except Inexpressible as exc:
        return exc.reason(puzzle.source, "the check before the search")
    identity: Relabel = lambda k, i: (k, i)  # noqa: E731
    stated = {_canon(p.cond, identity) for p in pieces}
    for sym in puzzle.symmetries:
        unstated = _unstated(puzzle, family, start_cells, sym, pieces, stated)
        if unstated is not None:
            return f"'{sym.name}' {unstated}"
    return None


HINT = "a permutation that moves every given to a cell that holds the same given"
ON_SOLUTIONS = "a permutation that maps every solution to a solution (checked on each solution found)"
MOST_SHOWN = 8  # cells of a solution and its image shown in a refusal


def broken_on(
    puzzle: Puzzle, family: FillFamily, start: bytes, sym: Symmetry, image: bytes, solution: bytes | None = None
) -> Diagnostic | None:
    """Where the image of a solution under the symmetry is no solution (a given changed, a
    value a cell may not hold, a piece of a rule broken): the refusal, naming what it breaks
    and, on the cells it concerns, what the solution and its image hold there."""
    name = _namer(puzzle)
    open_cells = {var.cell: set(var.values) for var in family.vars if var.cell is not None}
    broken = None
    cells: list[int] = []
    for cell in range(puzzle.cell_count):
        held = _held(puzzle, image[cell])
        if cell not in open_cells and image[cell] != start[cell]:
            broken = f"{name(cell)} holds {held}, not its given {_held(puzzle, start[cell])}"
        elif cell in open_cells and image[cell] not in open_cells[cell]:
            broken = f"{name(cell)} holds {held}, which it may not hold"
        if broken is not None:
            cells = [cell]
            break
    if broken is None:
        instance = next((i for i in family.instances if not i.holds(image)), None)
        if instance is None:
            return None
        cells = sorted(c for kind, c in instance.reads or () if kind == "cell")
        on = f" on {', '.join(name(c) for c in cells)}" if cells else ""
        broken = f"{_rule_text(puzzle.source, instance.expr.pos)}{on} does not hold"
    shown = ""
    if solution is not None and cells:
        pairs = [f"{name(c)} {_held(puzzle, solution[c])} -> {_held(puzzle, image[c])}" for c in cells[:MOST_SHOWN]]
        more = ", ..." if len(cells) > MOST_SHOWN else ""
        shown = f" (solution -> image: {', '.join(pairs)}{more})"
    return Diagnostic(
        sym.pos,
        f"'{sym.name}' is not a symmetry of this puzzle: it maps a solution found to a filling where {broken}{shown}",
        ON_SOLUTIONS,
    )


@dataclass(frozen=True)
class BrokenRule:
    """A piece of a rule that the givens alone break: where the spec writes it, its text
    (None where it is too long, or not printable, to quote), the cells it reads (named as
    the output names them), and the whole said in words (`said`)."""

    line: int
    column: int
    rule: str | None
    cells: tuple[str, ...]

    @property
    def said(self) -> str:
        quoted = f"`{self.rule}` (line {self.line})" if self.rule is not None else f"the rule of line {self.line}"
        on = f" on {', '.join(self.cells)}" if self.cells else ""
        return f"the givens break {quoted}{on}"


def broken_by_givens(puzzle: Puzzle, family: FillFamily, start: bytes) -> BrokenRule | None:
    """A piece of a rule that the givens alone break (its cells all given, or open to one
    value only; or an `all different` of cells, two of whose givens are equal: its open cells,
    empty, are left out of it), or None: why a filling has no solution before any search,
    since no value put in an open cell can mend it."""
    name = _namer(puzzle)
    state = bytearray(start)
    open_cells = set()
    for var in family.vars:
        if var.cell is None:
            return None  # a counter filled: the rules read more than the cells
        if len(var.values) == 1:
            state[var.cell] = var.values[0]
        else:
            open_cells.add(var.cell)
    for instance in family.instances:
        reads = instance.reads
        if reads is None or any(kind != "cell" for kind, _ in reads):
            continue
        if not instance.partial and any(c in open_cells for _, c in reads):
            continue
        if not instance.holds(bytes(state)):
            pos = instance.expr.pos
            read = sorted(c for _, c in reads)
            if instance.partial:  # the givens that clash, not every cell of the line
                given = [c for c in read if c not in open_cells and state[c] != EMPTY]
                read = [c for c in given if sum(state[c] == state[d] for d in given) > 1] or read
            cells = tuple(name(c) for c in read)
            return BrokenRule(pos.line, pos.column, _quoted(puzzle.source, pos), cells)
    return None


def _namer(puzzle: Puzzle) -> Callable[[int], str]:
    return puzzle.board.name if puzzle.board is not None else str


def _moves_givens(puzzle: Puzzle, family: FillFamily, start: Sequence[int], sym: Symmetry) -> str | None:
    """A given the symmetry moves onto a given of another piece, said, or None: every
    solution holds both, and its image holds the first where the second must be."""
    name = _namer(puzzle)
    things = {var.cell for var in family.vars if var.cell is not None}
    for cell in range(puzzle.cell_count):
        to = sym.cells[cell]
        if cell not in things and to not in things and start[to] != sym.codes[start[cell]]:
            return (
                f"it moves {_held(puzzle, start[cell])} at {name(cell)} to {name(to)}, "
                f"which holds {_held(puzzle, start[to])}"
            )
    return None


def _unstated(
    puzzle: Puzzle, family: FillFamily, start: Sequence[int], sym: Symmetry, pieces: list[_Piece], stated: set[Hashable]
) -> str | None:
    """Why the symmetry is not shown to map the filling onto itself (a given moved to an open
    cell, a value sent where it may not be, a piece of a rule whose image no rule states), or None."""
    name = _namer(puzzle)
    things = {var.cell: k for k, var in enumerate(family.vars) if var.cell is not None}
    for cell in range(puzzle.cell_count):
        to = sym.cells[cell]
        if cell not in things and to in things:
            return f"moves {_held(puzzle, start[cell])} at {name(cell)} to {name(to)}, which the start leaves open"
    images: dict[int, tuple[int, dict[int, int]]] = {}
    for cell, k in things.items():
        to = sym.cells[cell]
        image = things[to]  # a given moves to no open cell: nor does an open cell to a given
        index = {code: j for j, code in enumerate(family.vars[image].values)}
        for code in family.vars[k].values:
            if sym.codes[code] not in index:
                return (
                    f"sends {_held(puzzle, code)}, which {name(cell)} may hold, to {name(to)}, "
                    f"which may not hold {_held(puzzle, sym.codes[code])}"
                )
        images[k] = (image, {i: index[sym.codes[code]] for i, code in enumerate(family.vars[k].values)})

    def relabel(k: int, i: int) -> tuple[int, int]:
        if k not in images:  # a counter: left as it is
            return k, i
        image, mapped = images[k]
        return image, mapped[i]

    for piece in pieces:
        if _canon(piece.cond, relabel) not in stated:
            cells = [v.cell for v in (family.vars[k] for k in sorted(things_of(piece.cond))) if v.cell is not None]
            onto = sorted(sym.cells[c] for c in cells)
            on = f" on {_listed(cells, name)}" if cells else ""
            there = "" if not cells else " on the same cells" if onto == sorted(cells) else f" on {_listed(onto, name)}"
            return f"maps {_rule_text(puzzle.source, piece.pos)}{on} to a condition{there} that no rule states"
    return None


def _listed(cells: Sequence[int], name: Callable[[int], str]) -> str:
    """The cells named, the first MOST_SHOWN of them and how many in all where there are more
    (a rule on a row of 30 cells)."""
    shown = ", ".join(name(c) for c in cells[:MOST_SHOWN])
    return shown if len(cells) <= MOST_SHOWN else f"{shown}, ... ({len(cells)} cells)"


def _rule_text(source: str, pos: Pos) -> str:
    """The rule piece as the spec writes it (and its line), where it is short enough to quote."""
    quoted = _quoted(source, pos)
    return f"`{quoted}` (line {pos.line})" if quoted is not None else f"the rule of line {pos.line}"


def _quoted(source: str, pos: Pos) -> str | None:
    """The rule piece as the spec writes it, where it is on one line, printable and short
    enough to quote (None: not)."""
    lines = source.split("\n")
    if 1 <= pos.line <= len(lines) and 1 < pos.width <= 60:
        text = lines[pos.line - 1][pos.column - 1 : pos.column - 1 + pos.width]
        if text.isprintable():
            return text
    return None


def _held(puzzle: Puzzle, code: int) -> str:
    if code == EMPTY:
        return "nothing"
    return puzzle.pieces[puzzle.parts[code].piece - 1].symbol


def _conjuncts(cond: Cond) -> list[Cond]:
    if cond is True:
        return []
    return list(cond.parts) if isinstance(cond, And) else [cond]


# ---- canonical forms: equal for conditions that say the same of the same things, whatever
# the order their parts were read in


def _canon(cond: Cond, relabel: Relabel) -> Hashable:
    if isinstance(cond, bool):
        return ("bool", cond)
    if isinstance(cond, Lit):
        return ("lit", *_lit(cond.thing, cond.values, relabel))
    if isinstance(cond, (And, Or)):
        return (type(cond).__name__, frozenset(_canon(p, relabel) for p in cond.parts))
    if isinstance(cond, Not):
        return ("not", _canon(cond.part, relabel))
    if isinstance(cond, Compare):
        return _compare(cond, relabel)
    if isinstance(cond, Distinct):
        return _distinct(cond, relabel)
    assert isinstance(cond, LineRuns)
    return ("runs", tuple(_canon(c, relabel) for c in cond.cells), cond.clue)


def _lit(k: int, values: frozenset[int], relabel: Relabel) -> tuple[int, tuple[int, ...]]:
    return relabel(k, 0)[0], tuple(sorted(relabel(k, i)[1] for i in values))


FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _compare(cond: Compare, relabel: Relabel) -> Hashable:
    """A comparison of affine numbers as its difference compared with 0, its sign chosen so
    that `a == b` and `b == a`, `a < b` and `b > a` read alike."""
    if isinstance(cond.left, Affine) and isinstance(cond.right, Affine):
        difference = cond.left.plus(cond.right, -1)
        op = cond.op
        if op in (">", ">="):
            difference, op = difference.times(-1), FLIPPED[op]
        forms = [_affine(difference, relabel)]
        if op in ("==", "!="):
            forms.append(_affine(difference.times(-1), relabel))
        return ("compare", op, min(forms))
    return ("compare", cond.op, _number(cond.left, relabel), _number(cond.right, relabel))


def _affine(number: Affine, relabel: Relabel) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]:
    terms = []
    for k, coefs in number.terms.items():
        image = [relabel(k, i) for i in range(len(coefs))]
        moved = [0] * len(coefs)
        for (_, j), c in zip(image, coefs, strict=True):
            moved[j] = c
        terms.append((relabel(k, 0)[0], tuple(moved)))
    return number.constant, tuple(sorted(terms))


def _number(number: Num, relabel: Relabel) -> Hashable:
    if isinstance(number, Affine):
        return ("affine", _affine(number, relabel))
    if isinstance(number, Product):
        return ("product", frozenset(Counter(_number(f, relabel) for f in _factors(number)).items()))
    if isinstance(number, Call):
        args = [_number(a, relabel) for a in number.args]
        return ("call", number.name, frozenset(Counter(args).items()))
    if isinstance(number, Plus):
        return ("plus", frozenset(Counter((sign, _number(p, relabel)) for sign, p in number.parts).items()))
    assert isinstance(number, Where)
    return ("where", _canon(number.condition, relabel), _number(number.amount, relabel))


def _factors(number: Num) -> list[Num]:
    if isinstance(number, Product):
        return [*_factors(number.left), *_factors(number.right)]
    return [number]


def _distinct(cond: Distinct, relabel: Relabel) -> Hashable:
    """An `all different` as the groups of (thing, value) that share a key, each with how many
    givens have that key: the keys' own names do not matter, only which values clash."""
    groups: dict[Hashable, list[tuple[int, int]]] = {key: [] for key in cond.given}
    for k, keys in cond.keys.items():
        for i, key in enumerate(keys):
            if key is not None:
                groups.setdefault(key, []).append(relabel(k, i))
    given = Counter(cond.given)
    return ("distinct", cond.numbers, frozenset((frozenset(members), given[key]) for key, members in groups.items()))
