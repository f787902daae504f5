"""Typed expressions (`model.expr`) as bytecode for the kernel's machine (`kernel.machine`).

An expression becomes a run of instructions of four integers (opcode, a, b, c) that
`machine.evaluate` runs on a stack of 64-bit integers, ending with END. Every value is an
integer, as in the Python evaluator: numbers and truth values (0 or 1); a piece is its cell,
`cells + code` in a place, or -1; a cell, a place, a counter are their indexes; a direction,
a line, a list, a text are indexes into tables built here. Quantifiers and aggregates become
loops over their collection, whose state lives in hidden slots of the environment.

This module only builds data: nothing from a spec becomes code, and the machine that runs
the instructions is fixed. What the machine cannot run (blocks, say) is refused here with
the reason, and the Python engine answers instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ...compiler.evaluate import EvalError, negative_cost
from ...errors import Pos
from ...model import expr as m
from ...model.board import Board, Direction
from ...model.patterns import PatternSet
from ...model.pieces import DEAD_PACKED, PieceTable
from ...model.puzzle import ANY, EMPTY, Puzzle

# The opcodes; an instruction is (opcode, a, b, c). The stack is popped right operand first.
(
    END,
    PUSH,  # a
    LOAD,  # env[a]
    STORE,  # env[a] = pop
    POP,
    JUMP,  # to a
    JUMP_IF_FALSE,  # pop; to a if 0
    JUMP_IF_TRUE,
    ADD,
    SUB,
    MUL,
    DIV,  # a: error if the divisor is 0
    MOD,
    NEG,
    NOT,
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE,
    ABS,
    MIN2,
    MAX2,
    IN_LIST,  # pop list, pop value
    COUNTER,  # counter a's value
    COUNTER_DYN,  # pop a counter
    COUNTER_BOUND,  # pop a counter; a: 0 its low end, 1 its high end
    CELL_AT,  # a: 1 or 2 arguments popped, b: error
    PIECE_CONST,  # a: piece code
    CONTENT,  # pop a cell: its piece
    CELL_OF,  # pop a piece: its cell
    VALUE_OF,  # pop a piece: its number; a: error, b: the attribute table of values
    ATTR,  # pop a piece: attribute table a; b: error
    PIECE_ROW,  # pop a piece on a cell: its row (a: 0 row, 1 column); b: error
    CELL_ROW,  # pop a cell: its row (a: 0 row, 1 column); b: error
    EMPTY_BAG,  # bag register a holds nothing
    EMPTY_CELL,  # pop a cell
    EMPTY_PIECE,  # pop a piece
    EMPTY_PLACE,  # pop a place
    IS_KIND,  # pop a piece; a: code set
    AT_BAG,  # pop a piece: in bag register a
    AT_PLACE,  # pop a place, pop a piece
    FIRST,  # pop a direction, pop a cell: the first piece along the ray
    NEXT,  # pop a direction, pop a cell: the next cell
    TOP,  # pop a place: its top piece
    TOGETHER,  # pop a pieces: all in one place
    MISPLACED,  # the goal's cells not holding their piece
    INVERSIONS,  # pairs of pieces in the wrong order for the goal
    DISPLACEMENT,  # steps from each piece to its goal cell
    ITER_CELLS,  # a: code set, b: hidden slots: the cells holding those codes, code by code
    ITER_BAG,  # a: bag register, b: code set, c: hidden: its pieces of those codes
    ITER_PLACE,  # pop a place; a: code set, b: hidden
    ITER_PLACES,  # a: code set, b: hidden: every place's pieces of those codes
    ITER_TABLE,  # a: where in the values section, b: how many, c: hidden
    ITER_LIST,  # pop a list; b: hidden
    ITER_LINE,  # pop a line; b: hidden
    ITER_RAY,  # pop a direction, pop a cell; b: hidden
    NEXT_ITEM,  # a: hidden, b: the variable's slot, c: where to go when done
    SKIP_CELL,  # a: code set, b: slot, c: back to the loop unless the cell holds one
    SKIP_PIECE,  # a: code set, b: slot, c: back to the loop unless the piece is one
    ACC_MIN,  # pop; a: accumulator slot (a + 1: found)
    ACC_MAX,
    FAIL,  # a: error
    EMPTY_AT_COUNTER,  # counter a's cell is empty (a cursor off the board: no)
    EMPTY_PLACE_AT,  # place a holds nothing
    VALUE_OF_LOCAL,  # the number of the piece in env[a]; b: error, c: the table of values
    RETURN_IF_TRUE,  # pop; if not 0, the expression's value is a (a jump to `PUSH a, END`)
    RETURN_IF_FALSE,  # pop; if 0, the expression's value is a
    PATTERNS,  # the pattern databases' estimate: a: where their tables are in the values, b: scratch slots
    ALONE,  # the one-piece tables' estimate (heuristics.pieces): a: where they are in the values
) = range(71)
OPCODES = 71
WIDTH = 4  # integers an instruction
HIDDEN = 7  # hidden slots of a loop: kind, i, j, k, weight, accumulator, found
HERE_BAG, LOAD_BAG = 0, 1  # bag registers: the place being checked, a carry's load
MISSING = -(1 << 62)  # an attribute a piece does not have
UNREACHED = 255  # a pattern database's entry where its goal cannot be reached (as model.patterns)
DEAD = 1 << 40  # the estimate then: more than any solution

# error kinds, for the message the Python side gives
(
    ERR_DIVISION,
    ERR_OFF_BOARD,
    ERR_NO_NUMBER,
    ERR_NO_ATTRIBUTE,
    ERR_NOT_ON_BOARD,
    ERR_CURSOR_OFF,
    ERR_EMPTY_EXTREME,
    ERR_ADVANCE,
    ERR_NEGATIVE_COST,
) = range(9)


class Unsupported(Exception):
    """Something the machine does not run; the message says what, in the spec's words."""


# what a spec writes for each construct the machine does not run (its message names that, not
# the model's class)
EXPRESSION_WORDS: dict[type, str] = {
    m.Product: "product(...)",
    m.Connected: "connected(...)",
    m.Runs: "runs(...)",
    m.AllDifferent: "all different(...)",
    m.Index: "an item of a list read by its index (`l[i]`)",
    m.LineAttr: "a line's `row` or `col`",
    m.ListsConst: "a list of lists",
    m.Here: "the place a `safe in` rule checks",
}
COLLECTION_WORDS: dict[type, str] = {m.NeighboursDomain: "neighbours(...)"}


def _written(e: m.Expr) -> str:
    """The construct as the spec writes it, and where."""
    word = EXPRESSION_WORDS.get(type(e), "this expression")
    pos = getattr(e, "pos", None)
    return f"{word} (line {pos.line}, column {pos.column})" if pos is not None and pos.line else word


def _exits(table: PieceTable) -> list[int]:
    """A table's exits as `Compiler._pieces` lays them out."""
    cells = table.cells
    laid = [int(stuck) for stuck in table.stuck] + [0] * (cells + 1)
    for b, ways in enumerate(table.exits):
        laid[cells + b] = len(laid)
        for way in ways:
            laid.append(len(way))
            for cell, code in way:
                laid.extend((cell, code))
    laid[2 * cells] = len(laid)
    return laid


def assignment_slots(rows: int, columns: int) -> int:
    """The scratch slots `machine._least_assignment` takes for `rows` pieces and `columns`
    targets: the costs, then the rows' potentials, then the columns' potentials, owners,
    ways, least reductions and marks (0 where there are no targets)."""
    return rows * columns + rows + 1 + 5 * (columns + 1) if columns else 0


@dataclass
class ErrorSite:
    kind: int
    pos: Pos
    detail: str = ""  # an attribute's name, the aggregate function

    def raise_it(self, values: tuple[int, ...], board: Board | None) -> None:
        """Raise the error the Python evaluator raises here, with the same words."""
        pos, detail = self.pos, self.detail
        if self.kind == ERR_DIVISION:
            raise EvalError(pos, "division by zero", "a divisor that is never 0")
        if self.kind == ERR_OFF_BOARD:
            assert board is not None
            shown = ", ".join(str(v) for v in values)
            raise EvalError(pos, f"cell({shown}) is off the board (cells {board.names_range()})", board.names_range())
        if self.kind == ERR_NO_NUMBER:
            raise EvalError(pos, "no number here: the cell is empty or its piece has no value", "a numbered piece")
        if self.kind == ERR_NO_ATTRIBUTE:
            raise EvalError(pos, f"this piece has no {detail}", f"a piece with the attribute {detail}")
        if self.kind == ERR_NOT_ON_BOARD:
            raise EvalError(pos, f"this piece is not on the board, so it has no {detail}", "a piece on a cell")
        if self.kind == ERR_CURSOR_OFF:
            raise EvalError(pos, "the cursor is off the board", "a cell")
        if self.kind == ERR_EMPTY_EXTREME:
            raise EvalError(
                pos, f"{detail}() over nothing: the collection is empty here", "a collection that is never empty"
            )
        if self.kind == ERR_NEGATIVE_COST:
            raise negative_cost(pos, values[0])
        raise EvalError(
            pos, f"the cursor advances along a direction by a number of cells, not {values[0]}", "0 or more"
        )


@dataclass
class Assembly:
    """The instructions of every expression of one puzzle and the tables they share."""

    puzzle: Puzzle
    code: list[int] = field(default_factory=lambda: [0] * 0)
    values: list[int] = field(default_factory=list)  # fixed collections, lists, lines, rays
    code_sets: list[frozenset[int]] = field(default_factory=list)
    lists: dict[tuple[int, ...], int] = field(default_factory=dict)  # list -> where in values
    lines: dict[tuple[int, ...], int] = field(default_factory=dict)
    directions: list[Direction] = field(default_factory=list)
    attributes: list[tuple[int, ...]] = field(default_factory=list)
    texts: dict[str, int] = field(default_factory=dict)
    errors: list[ErrorSite] = field(default_factory=list)
    hidden: int = 0  # hidden slots given out, after `env_size`
    env_size: int = 0  # set before anything is compiled: the slots of every context
    measures: dict[str, list[int]] = field(default_factory=dict)
    # a cost of several parts packed in one word (`cost_parts.packing`, set before the heuristic
    # is compiled): each part's shift, and the bits of each field below the first
    cost_shifts: tuple[int, ...] = ()
    cost_field: int = 0

    # ---- tables
    def code_set(self, codes: frozenset[int]) -> int:
        if codes not in self.code_sets:
            self.code_sets.append(codes)
        return self.code_sets.index(codes)

    def direction(self, direction: Direction) -> int:
        for i, known in enumerate(self.directions):
            if known is direction:
                return i
        self.directions.append(direction)
        return len(self.directions) - 1

    def _stored(self, table: dict[tuple[int, ...], int], items: tuple[int, ...]) -> int:
        """Where a run of values is in `values`: its length, then the values."""
        found = table.get(items)
        if found is None:
            found = table[items] = len(self.values)
            self.values.extend((len(items), *items))
        return found

    def list_id(self, items: tuple[int, ...]) -> int:
        return self._stored(self.lists, items)

    def line_id(self, cells: tuple[int, ...]) -> int:
        return self._stored(self.lines, cells)

    def text(self, value: str) -> int:
        return self.texts.setdefault(value, len(self.texts))

    def attribute(self, name: str) -> int:
        """An attribute of every piece code (index 0: empty), MISSING where a piece has none."""
        puzzle = self.puzzle
        row: list[int] = [MISSING]
        for piece in puzzle.pieces:
            found: int | str | None
            if name == "width":
                found = piece.width
            elif name == "height":
                found = piece.height
            elif name == "value":
                found = piece.value
            else:
                found = piece.attribute(name)
            row.append(MISSING if found is None else self.text(found) if isinstance(found, str) else int(found))
        key = tuple(row)
        if key not in self.attributes:
            self.attributes.append(key)
        return self.attributes.index(key)

    def error(self, kind: int, pos: Pos, detail: str = "") -> int:
        self.errors.append(ErrorSite(kind, pos, detail))
        return len(self.errors) - 1

    def loop_slots(self) -> int:
        return self.scratch(HIDDEN)

    def scratch(self, count: int) -> int:
        """`count` hidden slots of the environment, given out for good: where they start."""
        at = self.env_size + self.hidden
        self.hidden += count
        return at

    # ---- instructions
    def emit(self, op: int, a: int = 0, b: int = 0, c: int = 0) -> int:
        """Append an instruction; its number (a jump's target is an instruction number)."""
        self.code.extend((op, a, b, c))
        return len(self.code) // WIDTH - 1

    def here(self) -> int:
        return len(self.code) // WIDTH

    def patch(self, at: int, operand: int, value: int) -> None:
        self.code[at * WIDTH + 1 + operand] = value

    def function(self, expr: m.Expr, base: int) -> int:
        """Compile an expression whose variables are at env[base + slot]: where it starts."""
        start = self.here()
        Compiler(self, base).value(expr)
        self.emit(END)
        self._shortcut(start)
        return start

    def _shortcut(self, start: int) -> None:
        """Jumps that end the expression end it at once: a jump to END is END, a conditional
        jump to `PUSH k, END` returns k (`a or b` is then two tests and no jumps)."""
        code = self.code
        for at in range(start, self.here()):
            op, target = code[at * WIDTH], code[at * WIDTH + 1]
            if op not in (JUMP, JUMP_IF_TRUE, JUMP_IF_FALSE):
                continue
            landing = code[target * WIDTH]
            if op == JUMP and landing == END:
                code[at * WIDTH : at * WIDTH + WIDTH] = [END, 0, 0, 0]
            elif op != JUMP and landing == PUSH and code[(target + 1) * WIDTH] == END:
                value = code[target * WIDTH + 1]
                code[at * WIDTH : at * WIDTH + WIDTH] = [
                    RETURN_IF_TRUE if op == JUMP_IF_TRUE else RETURN_IF_FALSE,
                    value,
                    0,
                    0,
                ]


class Compiler:
    """One expression's instructions, for variables at env[base + slot]."""

    def __init__(self, assembly: Assembly, base: int):
        self.a = assembly
        self.base = base
        self.puzzle = assembly.puzzle
        self.cells = self.puzzle.cell_count

    def emit(self, op: int, a: int = 0, b: int = 0, c: int = 0) -> int:
        return self.a.emit(op, a, b, c)

    def value(self, e: m.Expr) -> None:
        a = self.a
        if isinstance(e, m.Const):
            if isinstance(e.value, str):
                self.emit(PUSH, a.text(e.value))
            else:
                self.emit(PUSH, int(e.value))
        elif isinstance(e, m.ListConst):
            self.emit(PUSH, a.list_id(e.values))
        elif isinstance(e, m.Local):
            self.emit(LOAD, self.base + e.slot)
        elif isinstance(e, m.CounterValue):
            self.emit(COUNTER, e.counter)
        elif isinstance(e, (m.CellConst,)):
            self.emit(PUSH, e.cell)
        elif isinstance(e, m.CellAt):
            for arg in e.args:
                self.value(arg)
            self.emit(CELL_AT, len(e.args), a.error(ERR_OFF_BOARD, e.pos))
        elif isinstance(e, m.PlaceConst):
            self.emit(PUSH, e.place)
        elif isinstance(e, m.PieceConst):
            self.emit(PIECE_CONST, e.code)
        elif isinstance(e, m.DirectionConst):
            self.emit(PUSH, a.direction(e.direction))
        elif isinstance(e, m.CounterConst):
            self.emit(PUSH, e.counter)
        elif isinstance(e, m.Content):
            self.value(e.cell)
            self.emit(CONTENT)
        elif isinstance(e, m.CellOf):
            self.value(e.piece)
            self.emit(CELL_OF)
        elif isinstance(e, m.CounterRead):
            self.value(e.counter)
            self.emit(COUNTER_DYN)
        elif isinstance(e, m.ValueOf) and isinstance(e.piece, m.Local):
            self.emit(VALUE_OF_LOCAL, self.base + e.piece.slot, a.error(ERR_NO_NUMBER, e.pos), a.attribute("value"))
        elif isinstance(e, m.ValueOf):
            self.value(e.piece)
            self.emit(VALUE_OF, a.error(ERR_NO_NUMBER, e.pos), a.attribute("value"))
        elif isinstance(e, m.PieceAttr):
            self.value(e.piece)
            if e.name in ("row", "col"):
                self.emit(PIECE_ROW, int(e.name == "col"), a.error(ERR_NOT_ON_BOARD, e.pos, e.name))
            else:
                self.emit(ATTR, a.attribute(e.name), a.error(ERR_NO_ATTRIBUTE, e.pos, e.name))
        elif isinstance(e, m.CellAttr):
            if e.name == "name":
                raise Unsupported(f"a cell's `name` read during the search (line {e.pos.line}, column {e.pos.column})")
            self.value(e.cell)
            self.emit(CELL_ROW, int(e.name == "col"), a.error(ERR_CURSOR_OFF, e.pos))
        elif isinstance(e, m.CounterBound):
            self.value(e.counter)
            self.emit(COUNTER_BOUND, int(e.name == "max"))
        elif isinstance(e, m.Unary):
            self.value(e.operand)
            self.emit(NOT if e.op == "not" else NEG)
        elif isinstance(e, m.Binary):
            self._binary(e)
        elif isinstance(e, m.IsEmpty):
            self._is_empty(e)
        elif isinstance(e, m.IsKind):
            self.value(e.piece)
            self.emit(IS_KIND, a.code_set(e.codes))
        elif isinstance(e, m.IsAt):
            self.value(e.piece)
            if e.place is None:
                self.emit(AT_BAG, HERE_BAG)
            else:
                self.value(e.place)
                self.emit(AT_PLACE)
        elif isinstance(e, m.Call):
            self._call(e)
        elif isinstance(e, m.Quantified):
            self._quantified(e)
        elif isinstance(e, m.Aggregate):
            self._aggregate(e)
        else:
            raise Unsupported(_written(e))

    def _binary(self, e: m.Binary) -> None:
        if e.op in ("and", "or"):
            self.value(e.left)
            jump = self.emit(JUMP_IF_FALSE if e.op == "and" else JUMP_IF_TRUE)
            self.value(e.right)
            if e.right.type != m.BOOL:  # a condition is 0 or 1 already
                self.emit(NOT)
                self.emit(NOT)  # the right side's truth, as 0 or 1
            done = self.emit(JUMP)
            self.a.patch(jump, 0, self.a.here())
            self.emit(PUSH, int(e.op == "or"))
            self.a.patch(done, 0, self.a.here())
            return
        if e.type == m.TEXT or (e.op not in ("==", "!=") and m.TEXT in (e.left.type, e.right.type)):
            raise Unsupported("text computed during the search")
        self.value(e.left)
        self.value(e.right)
        names = {
            "+": ADD,
            "-": SUB,
            "*": MUL,
            "/": DIV,
            "%": MOD,
            "==": EQ,
            "!=": NE,
            "<": LT,
            "<=": LE,
            ">": GT,
            ">=": GE,
            "in": IN_LIST,
        }
        if e.op in ("/", "%"):
            self.emit(names[e.op], self.a.error(ERR_DIVISION, e.right.pos))
        else:
            self.emit(names[e.op])

    def _is_empty(self, e: m.IsEmpty) -> None:
        if isinstance(e.operand, m.Here):
            self.emit(EMPTY_BAG, HERE_BAG)
            return
        if isinstance(e.operand, m.CounterValue) and e.operand.type == m.CELL:
            self.emit(EMPTY_AT_COUNTER, e.operand.counter)  # `cursor is empty`, in one step
            return
        if isinstance(e.operand, m.PlaceConst):
            self.emit(EMPTY_PLACE_AT, e.operand.place)  # `hand is empty`, in one step
            return
        self.value(e.operand)
        kind = e.operand.type
        self.emit(EMPTY_CELL if kind == m.CELL else EMPTY_PIECE if kind == m.PIECE else EMPTY_PLACE)

    def _call(self, e: m.Call) -> None:
        name = e.name
        if name == "patterns":
            self.emit(PATTERNS, *self._patterns(e))
            return
        if name == "pieces":
            self.emit(ALONE, self._pieces())
            return
        if name in ("misplaced", "inversions", "displacement"):
            self.emit(
                {"misplaced": MISPLACED, "inversions": INVERSIONS, "displacement": DISPLACEMENT}[name], self._measure(e)
            )
            return
        for arg in e.args:
            self.value(arg)
        if name == "abs":
            self.emit(ABS)
        elif name in ("min", "max"):
            for _ in range(len(e.args) - 1):
                self.emit(MIN2 if name == "min" else MAX2)
        elif name in ("first", "next", "top"):
            self.emit({"first": FIRST, "next": NEXT, "top": TOP}[name])
        elif name == "together":
            self.emit(TOGETHER, len(e.args))
        elif name == "moves":
            raise Unsupported("moves() in the heuristic (the moves of each state are counted in Python)")
        elif name == "parts":
            raise Unsupported("costs of several parts (`cost 1, 1`), compared in order in Python")
        else:
            raise Unsupported(f"the function {name}()")

    def _measure(self, e: m.Call) -> int:
        """The table a measure of the distance to the goal reads, in `values`: where it starts.
        Mistakes (a goal that does not fix every cell) are the Python evaluator's, raised
        when the puzzle was compiled, so they cannot happen here."""
        puzzle, cells, a = self.puzzle, self.cells, self.a
        goal = puzzle.goal.cells
        assert goal is not None
        if e.name in a.measures:
            return a.measures[e.name][0]
        start = len(a.values)
        if e.name == "misplaced":
            wanted = [(cell, code) for cell, code in enumerate(goal) if code not in (EMPTY, ANY)]
            a.values.append(len(wanted))
            for cell, code in wanted:
                a.values.extend((cell, code))
        elif e.name == "inversions":
            where = {code: cell for cell, code in enumerate(goal) if code != EMPTY}
            a.values.extend(where.get(code, -1) for code in range(256))
        else:
            board = puzzle.board
            assert board is not None
            rows = [c.row or 0 for c in board.cells]
            cols = [c.col or 0 for c in board.cells]
            where = {code: cell for cell, code in enumerate(goal) if code != EMPTY}
            for code in range(256):
                for cell in range(cells):
                    goal_cell = where.get(code)
                    far = (
                        0
                        if goal_cell is None
                        else abs(rows[cell] - rows[goal_cell]) + abs(cols[cell] - cols[goal_cell])
                    )
                    a.values.append(far)
        a.measures[e.name] = [start]
        return start

    def _patterns(self, e: m.Call) -> tuple[int, int]:
        """The pattern databases in `values`, and two slots a table for its rank as it is
        counted. In `values`: how many tables, whether they add up, how many symmetries they
        are also read through, then for each of the 256 codes four numbers (its table, or -1;
        the bits of the pieces before it in its pattern; its own bit; the weight of its digit
        in a rank), then where each table's distances are, then each symmetry (the cell each
        cell reads, then the 256 codes' new names), then the distances (8 bytes a value,
        little-endian)."""
        a = self.a
        # a spec's patterns() before a search has built its tables (`plan.heuristic`), as an
        # engine is asked whether it can run it: no table, 0 (the Python evaluator refuses it)
        made = self.puzzle.patterns or PatternSet((), additive=False)
        if "patterns" in a.measures:
            start, slots = a.measures["patterns"]
            return start, slots
        start = len(a.values)
        by_code = [(-1, 0, 0, 0)] * 256
        for t, table in enumerate(made.tables):
            for i, code in enumerate(table.codes):
                by_code[code] = (t, (1 << i) - 1, 1 << i, table.weights[i])
        a.values.extend((len(made.tables), int(made.additive), len(made.symmetries)))
        for entry in by_code:
            a.values.extend(entry)
        offsets = len(a.values)
        a.values.extend([0] * len(made.tables))
        for symmetry in made.symmetries:
            a.values.extend(symmetry.reads)
            a.values.extend(symmetry.codes)
        for t, table in enumerate(made.tables):
            a.values[offsets + t] = len(a.values)
            a.values.extend(table.words)
        slots = a.scratch(2 * len(made.tables))
        a.measures["patterns"] = [start, slots]
        return start, slots

    def _pieces(self) -> int:
        """The one-piece tables (`model.pieces`) in `values`: how many tables, how many parts
        the cost has, the estimate of a dead state, each part's shift in the packed estimate
        (`cost_parts`: 0 where the cost is one number), where the scratch slots of an
        assignment start, where those of the frozen pieces start (`machine._frozen_stuck`: a
        mark a cell, then a list of the pieces), then each table's header (its code, how many
        unique pieces it keeps, how many pieces of its code there are, how many targets have
        tables of their own (0: none), where its exits are (-1: none), where each part's
        `moves` entries are, where each part's `own` entries are (-1 where they do not add
        up), where each part's first target's entries are (the others follow, a table apart),
        the kept pieces' codes), then the entries. A table's exits: whether each cell is stuck,
        where each cell's exits start and the last's end (from the exits' own start), then each
        exit as how many checks it makes and each check's cell and code. A cost of several
        parts is estimated packed as the costs are, its dead estimate DEAD_PACKED: refused
        (Unsupported) where an estimate may not fit."""
        a = self.a
        made = self.puzzle.alone
        assert made is not None, "a heuristic reads one-piece tables only where they were derived"
        if "pieces" in a.measures:
            return a.measures["pieces"][0]
        shifts: tuple[int, ...] = (0,)
        dead = DEAD
        if made.parts > 1:
            if len(a.cost_shifts) != made.parts:
                raise Unsupported("one-piece tables of a cost of several parts where the moves' costs have not")
            shifts, dead = a.cost_shifts, DEAD_PACKED
            for t in made.tables:
                largest = t.largest(self.puzzle.start.cells.count(t.code))
                guard = 1 << (a.cost_field - 1)  # a field below the first: its sums stay below its guard bit
                if largest[0] >= (DEAD_PACKED >> shifts[0]) - 1 or any(v >= guard for v in largest[1:]):
                    raise Unsupported("one-piece tables whose estimates may not fit the packed cost's fields")
        counts = [self.puzzle.start.cells.count(t.code) for t in made.tables]
        slots = max((assignment_slots(k, len(t.targets)) for t, k in zip(made.tables, counts, strict=True)), default=0)
        frozen = a.scratch(self.cells + sum(counts)) if any(t.exits for t in made.tables) else -1
        start = len(a.values)
        a.values.extend((len(made.tables), made.parts, dead, a.scratch(slots), frozen, *shifts))
        headers = []
        parts = made.parts
        for t, count in zip(made.tables, counts, strict=True):
            headers.append(len(a.values))
            a.values.extend((t.code, len(t.kept), count, len(t.targets), -1, *([-1] * (3 * parts)), *t.kept))
        for t, at in zip(made.tables, headers, strict=True):
            for p in range(parts):
                a.values[at + 5 + p] = len(a.values)
                a.values.extend(t.moves[p])
                if t.own is not None:
                    a.values[at + 5 + parts + p] = len(a.values)
                    a.values.extend(t.own[p])
                if t.each:
                    a.values[at + 5 + 2 * parts + p] = len(a.values)
                    for entries in t.each[p]:
                        a.values.extend(entries)
            if t.exits:
                a.values[at + 4] = len(a.values)
                a.values.extend(_exits(t))
        a.measures["pieces"] = [start]
        return start

    # ---- quantifiers and aggregates
    def _loops(self, domain: m.Domain, slot: int, body: Callable[[int], None]) -> None:
        """Loop over every part of a collection, running `body(hidden)` (which must leave the
        stack as it found it) with the variable at `slot` set and the item's weight (how many
        pieces it stands for) at hidden + 4."""
        if isinstance(domain, m.UnionDomain):
            for part in domain.parts:
                self._loops(part, slot, body)
            return
        codes: frozenset[int] | None = None
        cell_filter = False
        if isinstance(domain, m.FilteredDomain):
            inner = domain.inner
            if isinstance(inner, (m.UnionDomain, m.FilteredDomain)):
                parts = inner.parts if isinstance(inner, m.UnionDomain) else (inner,)
                for part in parts:
                    self._loops(m.FilteredDomain(part, domain.codes, domain.type), slot, body)
                return
            codes, cell_filter, domain = domain.codes, inner.type == m.CELL, inner
        for hidden in self._walks(domain):
            top = self.emit(NEXT_ITEM, hidden, slot)
            if codes is not None:
                self.emit(SKIP_CELL if cell_filter else SKIP_PIECE, self.a.code_set(codes), slot, top)
            body(hidden)
            self.emit(JUMP, top)
            self.a.patch(top, 2, self.a.here())

    def _walks(self, d: m.Domain) -> Iterator[int]:
        """The loops that walk a collection (two for the pieces of some kinds wherever they
        are: those on the cells, code by code, then those in each place), each started just
        before the caller emits its loop: yields each loop's hidden slots."""
        a = self.a
        if isinstance(d, m.KindDomain):
            codes = a.code_set(d.codes)
            if d.where in ("here", "load"):
                hidden = a.loop_slots()
                self.emit(ITER_BAG, HERE_BAG if d.where == "here" else LOAD_BAG, codes, hidden)
                yield hidden
            elif d.where is not None:
                assert not isinstance(d.where, str)
                self.value(d.where)
                hidden = a.loop_slots()
                self.emit(ITER_PLACE, codes, hidden)
                yield hidden
            else:
                if self.cells:
                    hidden = a.loop_slots()
                    self.emit(ITER_CELLS, codes, hidden)
                    yield hidden
                if self.puzzle.places:
                    hidden = a.loop_slots()
                    self.emit(ITER_PLACES, codes, hidden)
                    yield hidden
        elif isinstance(d, m.CellsDomain):
            if d.line is not None:
                self.value(d.line)
                hidden = a.loop_slots()
                self.emit(ITER_LINE, 0, hidden)
                yield hidden
            else:
                yield self._table(d.cells if d.cells is not None else tuple(range(self.cells)))
        elif isinstance(d, m.RayDomain):
            self.value(d.origin)
            self.value(d.direction)
            hidden = a.loop_slots()
            self.emit(ITER_RAY, 0, hidden)
            yield hidden
        elif isinstance(d, m.LinesDomain):
            yield self._table(tuple(a.line_id(line) for line in d.lines))
        elif isinstance(d, m.PlacesDomain):
            yield self._table(d.places)
        elif isinstance(d, m.DirectionsDomain):
            yield self._table(tuple(a.direction(x) for x in d.directions))
        elif isinstance(d, m.NumbersDomain):
            self.value(d.values)
            hidden = a.loop_slots()
            self.emit(ITER_LIST, 0, hidden)
            yield hidden
        else:
            raise Unsupported(f"a walk over {COLLECTION_WORDS.get(type(d), 'this collection')}")

    def _table(self, items: tuple[int, ...]) -> int:
        at = self.a.list_id(tuple(items))
        hidden = self.a.loop_slots()
        self.emit(ITER_TABLE, at, 0, hidden)
        return hidden

    def _quantified(self, e: m.Quantified) -> None:
        """some: true at the first item the body holds for; every: false at the first it
        fails for; no: false at the first it holds for."""
        slot = self.base + e.slot
        exits: list[int] = []
        stop_when = e.quantifier != "every"  # the body's value that decides

        def body(hidden: int) -> None:
            self.value(e.body)
            exits.append(self.emit(JUMP_IF_TRUE if stop_when else JUMP_IF_FALSE))

        self._loops(e.domain, slot, body)
        decided = e.quantifier == "some"  # the answer when an item decides
        self.emit(PUSH, int(not decided))
        done = self.emit(JUMP)
        for at in exits:
            self.a.patch(at, 0, self.a.here())
        self.emit(PUSH, int(decided))
        self.a.patch(done, 0, self.a.here())

    def _aggregate(self, e: m.Aggregate) -> None:
        """count and sum add each item's weight (how many pieces it stands for), or its value
        times its weight; min and max keep the extreme value, an error if there is none."""
        slot = self.base + e.slot
        acc = self.a.loop_slots()  # its first two slots: the accumulator and "found one"
        self.emit(PUSH, 0)
        self.emit(STORE, acc)
        self.emit(PUSH, 0)
        self.emit(STORE, acc + 1)

        def body(hidden: int) -> None:
            skip = None
            if e.condition is not None:
                self.value(e.condition)
                skip = self.emit(JUMP_IF_FALSE)
            if e.function == "count":
                self.emit(LOAD, acc)
                self.emit(LOAD, hidden + 4)
                self.emit(ADD)
                self.emit(STORE, acc)
            elif e.function == "sum":
                assert e.value is not None
                self.emit(LOAD, acc)
                self.value(e.value)
                self.emit(LOAD, hidden + 4)
                self.emit(MUL)
                self.emit(ADD)
                self.emit(STORE, acc)
            else:
                assert e.value is not None
                self.value(e.value)
                self.emit(ACC_MIN if e.function == "min" else ACC_MAX, acc)
            if skip is not None:
                self.a.patch(skip, 0, self.a.here())

        self._loops(e.domain, slot, body)
        if e.function in ("min", "max"):
            self.emit(LOAD, acc + 1)
            ok = self.emit(JUMP_IF_TRUE)
            self.emit(FAIL, self.a.error(ERR_EMPTY_EXTREME, e.pos, e.function))
            self.a.patch(ok, 0, self.a.here())
        self.emit(LOAD, acc)
