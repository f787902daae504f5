"""How large every number of a puzzle can get: an interval for each expression, from what
the model declares (the counters' ranges, the pieces' numbers and attributes, the constants,
the size of the board and of the places).

This is the one range analysis every engine's translation asks. The Python engine computes
with Python's integers, which have no bound. The compiled kernel computes with 64-bit
integers, where a value past 2**63 wraps round and turns a true condition false: a spec
whose values could leave the kernel's range is not given to it (`first_wide` says which
value and where). CP-SAT's model gives each value it makes (a product, an `abs`, a part of
a conditional sum) a variable whose domain is the interval found here (`terms_interval`, on a
filling's rules read as terms), and refuses a value past CPSAT_BOUND; the kernel's fill model
refuses a sum past KERNEL_BOUND. So no engine ever answers with a wrapped value, nor with a
bound of its own narrower than the values. The bounds are sound, not tight: an interval holds every value the
expression can take in any state, and may hold more.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

from ..errors import Pos
from ..model import expr as m
from ..model.patterns import DEAD
from ..model.pieces import DEAD_PACKED
from ..model.puzzle import CARRIER, CURSOR, NUMBER, Advance, Counter, Let, Move, Puzzle, SetCounter

KERNEL_BOUND = 1 << 62  # every value the kernel computes stays strictly between -KERNEL_BOUND and KERNEL_BOUND
# CP-SAT's values: its model checker refuses a linear expression whose least or greatest sum
# may pass 2**62 (half its 64-bit words), and a comparison takes the difference of two sides
CPSAT_BOUND = 1 << 60
# A factor of a product of two unknowns in CP-SAT's model: OR-tools 9.15's presolve proves
# `A * C != 0` unsolvable for A in 0..2 and C in 10**12..10**12+1 (found by the fuzzer at the
# edges; correct without presolve, and for every factor below 2**31: measured, the bound is
# exact), so a product whose factors may pass it is left to the other engines
CPSAT_FACTOR_BOUND = 1 << 31
ESTIMATE_BOUND = 1 << 58  # a heuristic's values: f = depth + estimate stays far below the searches' sentinels
BAG_CAPACITY = 255  # pieces of one kind a bag holds (a byte of the state)


class Interval(NamedTuple):
    low: int
    high: int

    @property
    def magnitude(self) -> int:
        return max(abs(self.low), abs(self.high))


class Wide(NamedTuple):
    """A value that may leave a bound: where it is written, and how far it may go."""

    pos: Pos
    interval: Interval
    bound: int
    what: str  # "the value", "the heuristic", "counter C's range"
    who: str = "the compiled kernel's 64-bit integers"

    def describe(self, source: str = "") -> str:
        """The reason in words, quoting the expression where the spec's text is at hand."""
        reach = self.reach
        where = f"at line {self.pos.line}, column {self.pos.column}" if self.pos.line else "in the spec"
        lines = source.splitlines()
        if 1 <= self.pos.line <= len(lines) and self.pos.width > 1:
            text = lines[self.pos.line - 1][self.pos.column - 1 : self.pos.column - 1 + self.pos.width]
            if text.isprintable():
                where = f"`{text}` ({where.removeprefix('at ')})"
        return (
            f"{self.what} {where} may reach {reach:,}, past {self.who} "
            f"(it takes values below 2**{self.bound.bit_length() - 1}; the Python engine has no bound)"
        )

    @property
    def reach(self) -> int:
        """The farthest value from 0 the interval holds."""
        return self.interval.high if abs(self.interval.high) >= abs(self.interval.low) else self.interval.low


BOOL = Interval(0, 1)


def cost_parts(puzzle: Puzzle) -> list[Interval] | None:
    """The values each part of a cost of several parts (`cost 0, 1`) may take, over every
    move: the kernel packs the parts into one word, in fields as wide as these bounds need
    (`kernel.machine.cost_parts`). None: no move's cost has several parts."""
    ranges = Ranges(puzzle)
    found: list[Interval] | None = None
    for move in puzzle.moves:
        cost = move.cost
        if not (isinstance(cost, m.Call) and cost.name == "parts"):
            continue
        ranges.bind_actions(move)
        each = [ranges.of(part) for part in cost.args]
        if found is not None:  # as many parts in every move's cost (`language.assemble` says so)
            each = [Interval(min(a.low, b.low), max(a.high, b.high)) for a, b in zip(found, each, strict=True)]
        found = each
    return found


def first_wide(puzzle: Puzzle) -> Wide | None:
    """The first value of the puzzle (in the spec's order) that may leave the kernel's range:
    a counter's declared range, a constant, or any expression of a move, a rule, the goal or
    the heuristic. None: every value the kernel would compute fits."""
    found = sorted(Ranges(puzzle).wide(), key=lambda w: (w.pos.line, w.pos.column))
    return found[0] if found else None


class Ranges:
    """The intervals of a puzzle's expressions (`interval`), and the values that may leave the
    kernel's range (`wide`)."""

    def __init__(self, puzzle: Puzzle):
        self.puzzle = puzzle
        cells = puzzle.cell_count
        pieces = len(puzzle.pieces)
        self.cells = cells
        # every index the kernel holds (a cell, `cells + code` for a piece in a place, a place, a
        # counter, a direction, a line, a text) is below this
        self.index = Interval(-1, cells + len(puzzle.parts) + 65536)
        on_stacks = sum(len(c) if p.stack else sum(c) for p, c in zip(puzzle.places, puzzle.start.places, strict=True))
        per_place = max(BAG_CAPACITY * pieces, on_stacks + sum(1 for code in puzzle.start.cells if code))
        self.pieces_at_most = cells + len(puzzle.places) * per_place
        board = puzzle.board
        self.rows = Interval(0, max([1] + [(c.row or 0) for c in board.cells])) if board is not None else BOOL
        self.cols = Interval(0, max([1] + [(c.col or 0) for c in board.cells])) if board is not None else BOOL
        self.slots: dict[int, Interval] = {}
        self.found: list[Wide] = []

    # ---- the whole puzzle
    def wide(self) -> Iterator[Wide]:
        puzzle = self.puzzle
        for counter in puzzle.counters:
            span = Interval(counter.low, counter.high)
            if span.magnitude >= KERNEL_BOUND or counter.high - counter.low >= KERNEL_BOUND:
                yield Wide(counter.pos, span, KERNEL_BOUND, f"counter {counter.name}'s range")
        for move in puzzle.moves:
            self.bind_actions(move)
            for part in (move.guard, move.cost):
                if part is not None:
                    self.of(part)
        for rule in puzzle.safety:
            self.slots = {}
            self.of(rule.condition)
        for condition in puzzle.goal.conditions:
            self.slots = {}
            self.of(condition)
        if puzzle.heuristic is not None:
            self.slots = {}
            estimate = self.of(puzzle.heuristic)
            if estimate.magnitude >= ESTIMATE_BOUND:
                self.found.append(Wide(puzzle.heuristic.pos, estimate, ESTIMATE_BOUND, "the heuristic"))
        yield from self.found

    def bind_actions(self, move: Move) -> None:
        """The intervals of a move's `let` variables, for its condition and cost (each of its
        actions' values checked on the way)."""
        self.slots = {}
        for action in move.actions:
            if isinstance(action, Let):
                self.slots[action.slot] = self.of(action.value)
            elif isinstance(action, SetCounter):
                self.of(action.value)
            elif isinstance(action, Advance):
                self.of(action.amount)

    # ---- expressions
    def of(self, e: m.Expr) -> Interval:
        """The interval of an expression's values; a node whose interval leaves the kernel's
        range is recorded (its sub-expressions first)."""
        found = self._node(e)
        if found.magnitude >= KERNEL_BOUND:
            self.found.append(Wide(e.pos, found, KERNEL_BOUND, "the value"))
        return found

    def _node(self, e: m.Expr) -> Interval:
        if isinstance(e, m.Const):
            if isinstance(e.value, bool):
                return BOOL
            return Interval(e.value, e.value) if isinstance(e.value, int) else self.index
        if isinstance(e, m.ListConst):
            return _hull(e.values) if e.values else Interval(0, 0)
        if isinstance(e, m.Local):
            return self.slots.get(e.slot, self.index if e.type != m.NUM else Interval(-KERNEL_BOUND, KERNEL_BOUND))
        if isinstance(e, m.CounterValue):
            return self._counter(e.counter)
        if isinstance(e, m.CounterRead):
            self.of(e.counter)
            return self._numbers(lambda c: Interval(c.low, c.high))
        if isinstance(e, m.CounterBound):
            self.of(e.counter)
            return self._numbers(lambda c: Interval(c.low, c.low) if e.name == "min" else Interval(c.high, c.high))
        if isinstance(e, (m.ValueOf, m.PieceAttr)):
            self.of(e.piece)
            return self._attribute("value" if isinstance(e, m.ValueOf) else e.name)
        if isinstance(e, m.CellAttr):
            self.of(e.cell)
            return self.index if e.name == "name" else self.rows if e.name == "row" else self.cols
        if isinstance(e, m.LineAttr):
            self.of(e.line)
            return self.rows if e.name == "row" else self.cols
        if isinstance(e, m.Index):
            self.of(e.at)
            if e.type != m.NUM:
                return self.index
            root: m.Expr = e.obj
            while isinstance(root, m.Index):
                root = root.obj
            numbers = root.values if isinstance(root, m.ListConst) else ()
            if isinstance(root, m.ListsConst):
                numbers = tuple(v for inner in root.values for v in inner)
            return _hull(numbers) if numbers else Interval(0, 0)
        if isinstance(e, m.Product):
            return self._product(e)
        if isinstance(e, m.Unary):
            inner = self.of(e.operand)
            return BOOL if e.op == "not" else Interval(-inner.high, -inner.low)
        if isinstance(e, m.Binary):
            return self._binary(e)
        if isinstance(e, m.Call):
            return self._call(e)
        if isinstance(e, m.Quantified):
            self._bind(e.slot, e.domain)
            self.of(e.body)
            return BOOL
        if isinstance(e, m.Aggregate):
            return self._aggregate(e)
        for child in m.children(e):
            self.of(child)
        return BOOL if e.type == m.BOOL else self.index

    def _counter(self, index: int) -> Interval:
        counter = self.puzzle.counters[index]
        if counter.role == CURSOR:
            return Interval(-1, max(0, self.cells - 1))
        if counter.role == CARRIER:
            return Interval(0, max(0, len(self.puzzle.places) - 1))
        return Interval(counter.low, counter.high)

    def _numbers(self, bound: Callable[[Counter], Interval]) -> Interval:
        """The hull of `bound` over the number counters (what a counter variable may be)."""
        found = [bound(c) for c in self.puzzle.counters if c.role == NUMBER]
        return _union(found) if found else Interval(0, 0)

    def _attribute(self, name: str) -> Interval:
        if name in ("row", "col"):
            return self.rows if name == "row" else self.cols
        values: list[int] = []
        for piece in self.puzzle.pieces:
            if name == "value":
                found: object = piece.value
            elif name in ("width", "height"):
                found = getattr(piece, name)
            else:
                found = piece.attribute(name)
            if isinstance(found, bool):
                values.append(int(found))
            elif isinstance(found, int):
                values.append(found)
            elif found is not None:
                return self.index  # a text attribute: an index into the texts
        return _hull(values) if values else Interval(0, 0)

    def _binary(self, e: m.Binary) -> Interval:
        a, b = self.of(e.left), self.of(e.right)
        if e.op == "+":
            return Interval(a.low + b.low, a.high + b.high)
        if e.op == "-":
            return Interval(a.low - b.high, a.high - b.low)
        if e.op == "*":
            return _hull([a.low * b.low, a.low * b.high, a.high * b.low, a.high * b.high])
        if e.op == "/":  # |a // b| <= |a| for every divisor but 0 (an error)
            return Interval(-a.magnitude, a.magnitude)
        if e.op == "%":  # the remainder has the divisor's sign and is smaller than it
            return Interval(min(0, b.low + 1), max(0, b.high - 1))
        return BOOL

    def _call(self, e: m.Call) -> Interval:
        args = [self.of(a) for a in e.args]
        if e.name == "abs":
            (a,) = args
            low = 0 if a.low <= 0 <= a.high else min(abs(a.low), abs(a.high))
            return Interval(low, a.magnitude)
        if e.name in ("min", "max"):
            pick = min if e.name == "min" else max
            return Interval(pick(a.low for a in args), pick(a.high for a in args))
        if e.name in ("together", "adjacent"):
            return BOOL
        if e.name == "inversions":
            return Interval(0, self.cells * self.cells)
        if e.name == "misplaced":
            return Interval(0, self.cells)
        if e.name == "parts":  # a cost of several parts: each part's values (`cost_parts` bounds each one)
            return Interval(min(a.low for a in args), max(a.high for a in args))
        if e.name == "moves":
            return Interval(0, 1 << 32)  # far more than any state's moves (and the kernel does not run it)
        if e.name == "patterns":
            tables = len(self.puzzle.patterns.tables) if self.puzzle.patterns is not None else 1
            return Interval(0, DEAD * tables)
        if e.name == "pieces":  # packed as the costs are where they have several parts (DEAD_PACKED when dead)
            alone = self.puzzle.alone
            return Interval(0, DEAD_PACKED if alone is not None and alone.parts > 1 else DEAD)
        if e.name == "displacement":
            return Interval(0, self.cells * (self.rows.high + self.cols.high))
        return self.index  # first, next, top: a piece or a cell

    def _aggregate(self, e: m.Aggregate) -> Interval:
        size = self._bind(e.slot, e.domain)
        if e.condition is not None:
            self.of(e.condition)
        if e.function == "count":
            return Interval(0, size)
        assert e.value is not None
        value = self.of(e.value)
        if e.function == "sum":  # every partial sum too: at most `size` terms, each in `value`
            return Interval(min(0, size * value.low), max(0, size * value.high))
        return value

    def _product(self, e: m.Product) -> Interval:
        """Each factor within the value's interval, at most `size` of them (or none: 1)."""
        size = self._bind(e.slot, e.domain)
        if e.condition is not None:
            self.of(e.condition)
        return product_interval(self.of(e.value), size)

    def _bind(self, slot: int, domain: m.Domain) -> int:
        """Bind a quantifier's variable to its collection's values; how many values (pieces
        counted with their multiplicity) the collection holds at most."""
        for child in m.domain_children(domain):
            self.of(child)
        self.slots[slot] = self._members(domain)
        return self._size(domain)

    def _members(self, domain: m.Domain) -> Interval:
        if isinstance(domain, m.NumbersDomain):
            return self.of(domain.values)
        if isinstance(domain, m.UnionDomain):
            return _union([self._members(p) for p in domain.parts])
        return self.index

    def _size(self, domain: m.Domain) -> int:
        if isinstance(domain, m.KindDomain):
            return self.pieces_at_most
        if isinstance(domain, m.FilteredDomain):
            return self._size(domain.inner)
        if isinstance(domain, m.UnionDomain):
            return sum(self._size(p) for p in domain.parts)
        if isinstance(domain, m.CellsDomain):
            return len(domain.cells) if domain.cells is not None else self.cells
        if isinstance(domain, m.RayDomain):
            return self.cells
        if isinstance(domain, m.NeighboursDomain):
            return len(domain.directions)
        if isinstance(domain, m.LinesDomain):
            return len(domain.lines)
        if isinstance(domain, m.PlacesDomain):
            return len(domain.places)
        if isinstance(domain, m.DirectionsDomain):
            return len(domain.directions)
        values = domain.values
        return len(values.values) if isinstance(values, m.ListConst) else MAX_UNKNOWN


MAX_UNKNOWN = KERNEL_BOUND  # a collection whose size is not known: nothing summed over it is bounded


def _union(intervals: list[Interval]) -> Interval:
    return Interval(min(i.low for i in intervals), max(i.high for i in intervals))


def _hull(values: list[int] | tuple[int, ...]) -> Interval:
    return Interval(min(values), max(values))


def product_interval(value: Interval, factors: int) -> Interval:
    """Every product of at most `factors` numbers of `value` (1 for none): sound, not tight;
    past 2**128 it stops growing, far beyond what any engine takes."""
    most = value.magnitude
    big = 1 << 128
    reach = 1
    for _ in range(factors if most > 1 else 0):
        reach *= most
        if reach >= big:
            reach = big
            break
    if value.low >= 0:
        return Interval(0 if value.low == 0 else min(1, value.low), reach)
    return Interval(-reach, reach)


def terms_interval(number: object) -> Interval:
    """Every value a number read as terms (`compiler.fill_terms`) may take: exactly for an
    affine one (each thing's least and greatest contribution, the constant), soundly for the
    rest. CP-SAT's model gives each value it makes a variable of this domain (and refuses
    one past CPSAT_BOUND)."""
    from .fill_terms import Affine, Call, Plus, Product, Where

    if isinstance(number, Affine):
        low = number.constant + sum(min(c) for c in number.terms.values())
        high = number.constant + sum(max(c) for c in number.terms.values())
        return Interval(low, high)
    if isinstance(number, Product):
        a, b = terms_interval(number.left), terms_interval(number.right)
        return _hull([a.low * b.low, a.low * b.high, a.high * b.low, a.high * b.high])
    if isinstance(number, Call):
        args = [terms_interval(a) for a in number.args]
        if number.name == "abs":
            (a,) = args
            return Interval(0 if a.low <= 0 <= a.high else min(abs(a.low), abs(a.high)), a.magnitude)
        pick = min if number.name == "min" else max
        return Interval(pick(a.low for a in args), pick(a.high for a in args))
    if isinstance(number, Plus):
        low = high = 0
        for sign, part in number.parts:
            found = terms_interval(part)
            low += min(sign * found.low, sign * found.high)
            high += max(sign * found.low, sign * found.high)
        return Interval(low, high)
    assert isinstance(number, Where)
    amount = terms_interval(number.amount)
    return Interval(min(0, amount.low), max(0, amount.high))
