"""Elaboration of fillings (logic puzzles): `fill TARGETS with ITEMS [or empty]`, `rule:` and
`boxes R x C`.

A filling decides what the start leaves open: cells (from a domain of pieces, or staying
empty) and counters (numbers). It becomes one move of the model (`FillForm`) that decides
the next open thing, counted in a progress counter of its own; the rules become the
puzzle's `rules`, and its goal is "everything decided" (the rules are checked as soon as
what they read is decided). Everything here is also refused at its place when it does not
fit: a fill of a cell the start fills, a domain of pieces that do not exist, a rule without
a fill, a fill beside moves or a goal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import Pos, SpecError, suggest
from ..model import expr as m
from ..model.board import Board
from ..model.puzzle import (
    EMPTY,
    NUMBER,
    PROGRESS,
    Counter,
    FillForm,
    FillVar,
    Move,
    Objective,
    PieceType,
    Rule,
)
from . import syntax as s
from .predicates import Names, Scope, condition, number
from .rules import source_text

if TYPE_CHECKING:
    from .context import Elaboration

MAX_VARS = 4096  # things one filling may decide (a board's cells at most)
MAX_VALUES = 1 << 16  # values one counter of a filling may take


def with_boxes(el: Elaboration, board: Board | None) -> Board | None:
    """`boxes R x C`: the grid's boxes, a family of lines like rows and columns."""
    stmt = el.single(s.Boxes, "boxes")
    if not isinstance(stmt, s.Boxes) or board is None:
        if isinstance(stmt, s.Boxes):
            el.errors.missing("board", stmt.pos, "boxes cut a grid, and this puzzle has no board", "board grid R x C")
        return board
    if not board.has_frame or board.one_row:
        el.errors.error(stmt.pos, f"boxes cut a grid, and this is {board.describe()}", "board grid ROWS x COLUMNS")
        return board
    height = el.eval_int(stmt.rows, "a box's rows", 1)
    width = el.eval_int(stmt.cols, "a box's columns", 1)
    if height is None or width is None:
        return board
    if board.rows % height or board.cols % width:
        el.errors.error(
            stmt.pos,
            f"boxes of {height} x {width} do not cut {board.describe()} exactly{el.with_params()}",
            f"boxes whose sides divide {board.rows} and {board.cols}",
        )
        return board
    from dataclasses import replace

    return replace(board, box=(height, width))


NAMES = (
    "a name that begins with a letter (c3), or a number (12), and is not a word of the language "
    "(docs/language.md lists them)"
)


def with_regions(el: Elaboration, board: Board | None) -> Board | None:
    """`regions:` and a picture of the board: a letter on each cell, the cells of one letter
    a region (a cage, a jigsaw piece); `regions` is then a family of lines like `rows`, and
    `region(a)` one region. A row of as many words as the board has columns names a region
    per word (`AA AB AB`), so that a puzzle of more cages than letters is written as printed."""
    stmt = el.single(s.Regions, "regions")
    if not isinstance(stmt, s.Regions):
        return board
    if board is None or not board.has_frame or board.wraps:
        shown = board.describe() if board is not None else "no board"
        el.errors.error(stmt.pos, f"regions are drawn on a grid, and this puzzle has {shown}", "board grid R x C")
        return board
    if len(stmt.rows) != board.rows:
        el.errors.error(
            stmt.pos,
            f"the regions' picture has {len(stmt.rows)} rows and the board {board.rows}{el.with_params()}",
            "one row of letters per row of the board",
        )
        return board
    found: dict[str, list[int]] = {}
    named = next((row for row in stmt.rows if _names_a_region_per_word(row, board.cols)), None)
    for r, row in enumerate(stmt.rows):
        squares: list[str] = []
        words = sum(item.squares if isinstance(item, s.NoCells) else 1 for item in row.items)
        long_word = next((i for i in row.items if isinstance(i, s.Cells) and len(i.text) > 1), None)
        if named is not None and words != board.cols and long_word is not None:
            el.errors.error(
                long_word.pos.moved(0, len(long_word.text)),
                f"'{long_word.text}' would be read a letter a cell, where another row names a region per "
                f"word (line {(named.pos.inside or named.pos).line}): this row has {words} words and the board "
                f"{board.cols} columns",
                "one name per square separated by spaces, in every row",
            )
            return board
        for item in row.items:
            if isinstance(item, s.Cells) and words == board.cols:  # a name a square: AA AB AC ...
                misread = _misread_name(item.text)
                if misread:
                    el.errors.error(
                        item.pos.moved(0, len(item.text)),
                        f"'{item.text}' cannot be a region's name: region({item.text}) would read as {misread}",
                        NAMES,
                    )
                    return board
                if item.text in el.reserved:
                    el.errors.error(
                        item.pos.moved(0, len(item.text)),
                        f"'{item.text}' is a word of the language and cannot name a region",
                        NAMES,
                    )
                    return board
                squares.append(item.text)
            elif isinstance(item, s.Cells):
                squares.extend(item.text)
            elif isinstance(item, s.NoCells):
                squares.extend("." * item.squares)
            else:
                el.errors.error(
                    item.pos,
                    "a region is drawn with its name on each of its cells: no ?, ?x, ( ) or * in a regions' picture",
                    "names of regions (letters and digits), `.` for no cell",
                )
                return board
        if len(squares) != board.cols:
            counted = f"{len(squares)} squares" if words == len(squares) else f"{words} names or {len(squares)} letters"
            el.errors.error(
                row.pos,
                f"this row of the regions' picture has {counted} and the board {board.cols} columns{el.with_params()}",
                "one letter per square of the row, or one name per square separated by spaces",
            )
            return board
        for c, letter in enumerate(squares):
            cell = board.at(r + 1, c + 1)
            if (cell is None) != (letter == "."):
                what = "a letter where the board has no cell" if cell is None else "`.` on a cell"
                el.errors.error(row.pos, f"the regions' picture has {what} (row {r + 1}, column {c + 1})")
                return board
            if cell is not None:
                found.setdefault(letter, []).append(cell)
    from dataclasses import replace

    return replace(board, regions=tuple((letter, tuple(cells)) for letter, cells in found.items()))


def _names_a_region_per_word(row: s.Layout, cols: int) -> bool:
    """A row written as one word a square with a word of several characters (`ab ab cd cd`):
    the picture names its regions by words, so no row of it is split into letters."""
    words = sum(item.squares if isinstance(item, s.NoCells) else 1 for item in row.items)
    return words == cols and any(isinstance(i, s.Cells) and len(i.text) > 1 for i in row.items)


def _misread_name(name: str) -> str:
    """What `region(NAME)` would read instead of a name drawn in the picture ('' if NAME):
    a name that begins with a digit is a number followed by something else."""
    if not name[0].isdigit():
        return ""
    if not name.isdigit():
        return "a number and a name"
    return "" if name == str(int(name)) else f"the number {int(name)}"


def counters(el: Elaboration, board: Board | None, declared: list[Counter]) -> list[Counter]:
    """The counters a filling finds (`fill S, E, N with 0..9`, where no board cell has those
    names), each starting at its lowest value until it is decided."""
    out: list[Counter] = []
    taken = {c.name: c.pos for c in declared}
    for stmt in el.of(s.Fill):
        if fills_cells(stmt, board):
            continue
        if board is None and any(t.name == "cells" for t in stmt.targets):
            el.errors.missing("board", stmt.pos, "a filling of cells needs a board", "board ...")
            continue
        low_high = _number_range(el, stmt)
        for target in stmt.targets:
            if target.name in taken:
                el.errors.error(
                    target.pos,
                    f"'{target.name}' is declared twice (first on line {taken[target.name].line})",
                    "a name of its own for each counter a filling finds",
                )
                continue
            el.check_name(target.pos, target.name, "a counter")
            taken[target.name] = target.pos
            if low_high is not None:
                low, high = low_high
                out.append(Counter(target.name, low, high, low, NUMBER, "to be found", target.pos))
    return out


def progress_counter(el: Elaboration, board: Board | None, found: list[Counter]) -> Counter | None:
    """The counter of what a filling has decided so far (0 to everything), if there is a fill."""
    fills = el.of(s.Fill) + el.of(s.Tile)
    if not fills:
        return None
    most = (board.size if board is not None else 0) + len(found)
    return Counter("_progress", 0, max(1, most), 0, PROGRESS, "what the filling has decided", fills[0].pos)


def fills_cells(stmt: s.Fill, board: Board | None) -> bool:
    """Whether a fill decides cells (`cells`, or cells named) rather than counters."""
    return board is not None and any(t.name == "cells" or board.by_name(t.name) is not None for t in stmt.targets)


def _number_range(el: Elaboration, stmt: s.Fill) -> tuple[int, int] | None:
    if stmt.or_empty:
        el.errors.error(
            stmt.pos, "a counter always holds a number: 'or empty' fills cells", "fill NAMES with LOW..HIGH"
        )
    if len(stmt.items) != 1 or stmt.items[0].high is None:
        pos = stmt.items[0].pos if stmt.items else stmt.pos
        el.errors.error(pos, "a filling finds counters' numbers from one range", "fill NAMES with LOW..HIGH")
        return None
    item = stmt.items[0]
    low = el.eval_int(item.low, "the lowest value", None)  # type: ignore[arg-type]
    high = el.eval_int(item.high, "the highest value", None)  # type: ignore[arg-type]
    if low is None or high is None:
        return None
    if low > high:
        el.errors.error(item.pos, f"the range {low}..{high} is empty{el.with_params()}", "LOW <= HIGH")
        return None
    if high - low >= MAX_VALUES:
        el.errors.error(
            item.pos,
            f"the range {low}..{high} holds {high - low + 1:,} values; a counter of a filling takes at most "
            f"{MAX_VALUES:,}{el.with_params()}",
            f"a range of at most {MAX_VALUES:,} values",
        )
        return None
    return low, high


def fill_move(
    el: Elaboration,
    names: Names,
    board: Board | None,
    types: list[PieceType],
    start_cells: list[int],
    progress: Counter | None,
) -> Move | None:
    """The filling as one move of the model (None: the spec has no fill)."""
    fills = el.of(s.Fill)
    if not (fills or el.of(s.Tile)) or progress is None:
        return None
    no_moves_nor_goal(el)
    if not fills:
        return None
    for tile in el.of(s.Tile):
        el.errors.error(tile.pos, "a spec fills cells or tiles them, not both", "one `fill` or one `tile`")
    decided: dict[int, Pos] = {}
    mistakes = len(el.errors.diagnostics)
    cell_vars: list[FillVar] = []
    counter_vars: list[FillVar] = []
    for stmt in fills:
        if fills_cells(stmt, board):
            for var in _cell_vars(el, stmt, board, types, start_cells, decided):
                cell_vars.append(var)
        else:
            for target in stmt.targets:
                index = names.counter(target.name)
                if index is not None:
                    counter = names.counters[index]
                    values = tuple(range(counter.low, counter.high + 1))
                    counter_vars.append(FillVar(None, index, values, target.pos))
    cell_vars.sort(key=lambda v: v.cell)  # type: ignore[arg-type, return-value]
    found = tuple(cell_vars + counter_vars)
    if len(found) > MAX_VARS:
        el.errors.error(fills[0].pos, f"a filling decides at most {MAX_VARS:,} things; this one {len(found):,}")
        return None
    if not found:
        if len(el.errors.diagnostics) > mistakes:  # nothing open because of a mistake reported
            return None
        found = _checked_whole(start_cells, fills[0].pos)
    index = names.counter(progress.name)
    assert index is not None
    form = FillForm(found, index)
    line = source_text(el, fills[0].pos)
    return Move("fill", fills[0].pos, form, (), None, None, (), 2, line)


def _checked_whole(start_cells: list[int], pos: Pos) -> tuple[FillVar, ...]:
    """A filling whose start leaves nothing open (a published solution pasted to be checked):
    its last given cell becomes the one thing to decide, with its given as its only value, so
    that every engine checks every rule the way it checks any filling's (at the last thing
    decided). One solution: the start keeps the rules; none: it breaks one."""
    last = max(c for c, code in enumerate(start_cells) if code != EMPTY)
    given = start_cells[last]
    start_cells[last] = EMPTY
    return (FillVar(last, None, (given,), pos),)


def no_moves_nor_goal(el: Elaboration) -> None:
    """A filling or a tiling has no moves and no goal: what it decides, and its rules, say it all."""
    tiling = not el.of(s.Fill)
    for stmt in el.of(s.Move):
        if tiling:
            el.errors.error(stmt.pos, "a tiling has no moves: it places each piece once, covering the cells")
        else:
            el.errors.error(stmt.pos, "a filling has no moves: it decides what is open, and its rules say what may be")
    for stmt in el.statements:
        layout = isinstance(stmt, (s.LayoutDecl, s.ComputedLayout, s.PlaceLayout)) and stmt.which == "goal"
        if (isinstance(stmt, s.GoalWhen) or layout) and tiling:
            el.errors.error(stmt.pos, "a tiling's goal is every cell covered, each piece placed once")
        elif isinstance(stmt, s.GoalWhen) or layout:
            el.errors.error(stmt.pos, "a filling's goal is its rules: every solution keeps them", "rule: CONDITION")
    for stmt in el.of(s.Heuristic):
        kind = "tiling" if tiling else "filling"
        el.errors.error(
            stmt.pos,
            f"a heuristic orders a walk's moves, and a {kind}'s solvers choose their own order (the most"
            " constrained first), so it would change nothing",
            "no heuristic in a filling or a tiling (`minimize`/`maximize` choose among solutions)",
        )


def _cell_vars(
    el: Elaboration,
    stmt: s.Fill,
    board: Board | None,
    types: list[PieceType],
    start_cells: list[int],
    decided: dict[int, Pos],
) -> list[FillVar]:
    if board is None:
        el.errors.missing("board", stmt.pos, "a filling of cells needs a board", "board ...")
        return []
    codes = _domain(el, stmt, types)
    if codes is None:
        return []
    if stmt.or_empty:
        codes = (*codes, EMPTY)
    cells: list[tuple[int, Pos]] = []
    for target in stmt.targets:
        if target.name == "cells":
            cells.extend((c, target.pos) for c in range(board.size) if start_cells[c] == EMPTY and c not in decided)
            continue
        cell = board.by_name(target.name)
        if cell is None:
            near = suggest(target.name, [c.name for c in board.cells])
            el.errors.error(
                target.pos,
                f"'{target.name}' is no cell of {board.describe()}{near}",
                f"cells ({board.names_range()}) or `cells`",
            )
        elif start_cells[cell] != EMPTY:
            el.errors.error(target.pos, f"the start already fills {target.name}", "a cell the start leaves empty")
        elif cell in decided:
            el.errors.error(target.pos, f"{target.name} is filled twice (first on line {decided[cell].line})")
        else:
            cells.append((cell, target.pos))
    out = []
    for cell, pos in cells:
        decided[cell] = pos
        out.append(FillVar(cell, None, codes, pos))
    return out


def _domain(el: Elaboration, stmt: s.Fill, types: list[PieceType]) -> tuple[int, ...] | None:
    """The piece codes a filling of cells may put: symbols, kinds, numbered pieces a..b."""
    codes: list[int] = []
    for item in stmt.items:
        if item.high is None:
            assert isinstance(item.low, s.Name)
            word = item.low.name
            matching = [p.code for p in types if word in (p.symbol, p.kind)]
            if not matching:
                known = sorted({p.symbol for p in types} | {p.kind for p in types})
                el.errors.error(
                    item.pos, f"no piece is '{word}'{suggest(word, known)}", "piece symbols or kinds, or a range a..b"
                )
                return None
        else:
            low = el.eval_int(item.low, "the lowest number", None)  # type: ignore[arg-type]
            high = el.eval_int(item.high, "the highest number", None)
            if low is None or high is None:
                return None
            matching = [p.code for p in types if p.value is not None and low <= p.value <= high]
            if not matching:
                el.errors.error(
                    item.pos,
                    f"no numbered piece is in {low}..{high}{el.with_params()}",
                    "numbered pieces (`pieces 1..9`) in the range",
                )
                return None
            numbered = {p.value for p in types if p.value is not None}
            missing = [v for v in range(low, high + 1) if v not in numbered]
            if missing:
                shown = ", ".join(str(v) for v in missing[:5]) + (", ..." if len(missing) > 5 else "")
                el.errors.error(
                    item.pos,
                    f"{low}..{high} names numbers that are no pieces ({shown}){el.with_params()}",
                    f"numbered pieces only: the spec declares {_ranges(sorted(numbered))}",
                )
                return None
        codes.extend(c for c in matching if c not in codes)
    if any(types[c - 1].shape is not None for c in codes):
        el.errors.error(
            stmt.pos, "a filling puts pieces of one cell; blocks are placed by tiling", "pieces of one cell"
        )
        return None
    return tuple(codes)


def rules(el: Elaboration, names: Names, filling: bool) -> list[Rule]:
    found: list[Rule] = []
    for stmt in el.of(s.Rule):
        if not filling:
            el.errors.error(
                stmt.pos,
                "a rule says what a filling's solutions keep, and this spec has no `fill` "
                "(a condition on every state is `safe:`)",
                "fill ... with ..., or safe: CONDITION",
            )
            continue
        for expr in stmt.conditions:
            where = Scope(names, "a rule")
            try:
                typed = condition(expr, where)
            except SpecError as exc:
                el.errors.diagnostics.extend(exc.diagnostics)
                continue
            if isinstance(typed, m.Const):
                if typed.value is False:
                    el.errors.error(expr.pos, "this rule never holds: the filling has no solution")
                continue
            found.append(Rule(expr.pos, typed, where.size, source_text(el, expr.pos)))
    return found


def objective(el: Elaboration, names: Names, filling: bool) -> Objective | None:
    """`maximize EXPR ["NAME"]` / `minimize EXPR ["NAME"]`: of a filling's solutions, those
    where the number is largest (smallest). One per spec, in a filling only, a number that
    depends on what is filled."""
    found: list[s.Objective] = el.of(s.Objective)
    for extra in found[1:]:
        el.errors.error(
            extra.pos,
            f"a filling has one objective, and `{found[0].sense}` is given on line {found[0].pos.line}",
            "one `maximize EXPR` or `minimize EXPR`",
        )
    if not found:
        return None
    stmt = found[0]
    if not filling:
        tiling = bool(el.of(s.Tile))
        el.errors.error(
            stmt.pos,
            f"`{stmt.sense}` chooses among a filling's solutions by a number of what it fills, and "
            + ("a tiling's pieces are laid, not numbers filled" if tiling else "this spec has no `fill`"),
            "fill ... with ..., then maximize EXPR or minimize EXPR",
        )
        return None
    scope = Scope(names, "the objective")
    try:
        typed = number(stmt.value, scope)
    except SpecError as exc:
        el.errors.diagnostics.extend(exc.diagnostics)
        return None
    if isinstance(typed, m.Const):
        el.errors.error(
            stmt.value.pos,
            f"this objective is {typed.value} whatever is filled{el.with_params()}: it chooses nothing",
            "a number that reads what the filling decides (cells' values, counters)",
        )
        return None
    name = stmt.name if stmt.name is not None else _written(el, stmt)
    return Objective(stmt.pos, stmt.sense == "maximize", typed, scope.size, name)


def _written(el: Elaboration, stmt: s.Objective) -> str:
    """The objective's number as the spec writes it (on the statement's line)."""
    text = source_text(el, stmt.pos)
    return text[len(stmt.sense) :].split("#")[0].strip()


def _ranges(values: list[int]) -> str:
    """1, 2, 3, 5 as `1..3, 5`."""
    out: list[str] = []
    start = previous = values[0]
    for v in [*values[1:], None]:
        if v is not None and v == previous + 1:
            previous = v
            continue
        out.append(str(start) if start == previous else f"{start}..{previous}")
        if v is not None:
            start = previous = v
    return ", ".join(out)
