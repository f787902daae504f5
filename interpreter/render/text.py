"""The solution as a person follows it: the start, then each move named (rule, pieces, from,
to) with the state after it and what changed marked; then the numbers.

One drawing serves every puzzle: the board (a row of cells with a ruler, or grids side by
side), then each place (bags listed, stacks bottom first, the carrier where it is) and each
counter. The amida ladder (`show ladder`) and the number circle (`show circle`) are drawn
as their articles print them.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..compiler import CompiledPuzzle, MoveLabel
from ..language.expressions import show
from ..model.puzzle import CARRIER, CURSOR, SHOW_CIRCLE, SHOW_LADDER, Puzzle
from ..runner import Solved
from ..search.result import LIMIT, NO_SOLUTION, SOLVED
from ..solutions import AllSolutions
from . import data
from .ladder import ladder_lines

EMPTY_GLYPH = "·"
MOVED = "bold black on yellow"
LEFT = "yellow"

Path = list[tuple[int, bytes]]


# ---- pieces of a drawing


def glyph(compiled: CompiledPuzzle, code: int) -> str:
    return EMPTY_GLYPH if code == 0 else compiled.puzzle.piece(code).glyph


def draw_cells(compiled: CompiledPuzzle, state: bytes, label: MoveLabel | None = None) -> Text:
    """The board, one glyph per cell in a 3-character slot (rows on separate lines, squares
    without a cell left blank); the cells a move filled are bracketed and highlighted, so the
    moved piece shows without colour too, and the cursor's cell is underlined."""
    puzzle = compiled.puzzle
    board = puzzle.board
    assert board is not None
    reached: set[int] = set()
    left: set[int] = set()
    if label is not None:
        reached = {c for c in label.cells if state[c] != 0}
        left = {c for c in label.cells if state[c] == 0}
    cursor = _cursor(compiled, state)
    width = max([len(glyph(compiled, c)) for c in set(state[: compiled.cells])] + [1])
    text = Text()
    squares = board.frame if board.has_frame else tuple(range(board.size))
    cols = board.cols if board.has_frame else board.size
    for i, cell in enumerate(squares):
        if i and i % cols == 0:
            text.append("\n")
        if cell < 0:
            text.append(" " * (width + 2))
            continue
        g = glyph(compiled, state[cell]).rjust(width)
        style = "underline" if cell == cursor else ""
        if cell in reached:
            text.append(f"[{g}]", style=MOVED)
        elif cell in left:
            text.append(f" {g} ", style=LEFT)
        else:
            text.append(f" {g} ", style=style)
    return text


def _cursor(compiled: CompiledPuzzle, state: bytes) -> int | None:
    index = compiled.puzzle.counter_index(CURSOR)
    if index is None:
        return None
    value = compiled.layout.reader(index)(state)
    return value if value >= 0 else None


def ruler(compiled: CompiledPuzzle, state: bytes) -> Text:
    board = compiled.puzzle.board
    assert board is not None
    width = max([len(glyph(compiled, c)) for c in set(state[: compiled.cells])] + [1]) + 2
    return Text(
        "".join(board.name(c).center(width) for c in range(board.size if not board.has_frame else board.cols)),
        style="dim",
    )


def place_texts(compiled: CompiledPuzzle, state: bytes, label: MoveLabel | None = None) -> list[Text]:
    """Each place's pieces (a stack bottom first), the carrier shown where it is, and the
    pieces that just arrived highlighted."""
    puzzle = compiled.puzzle
    carrier = puzzle.counter_index(CARRIER)
    carrier_at = compiled.layout.reader(carrier)(state) if carrier is not None else None
    arrived = {(symbol, to) for symbol, _, to in label.movers} if label is not None else set()
    out = []
    decoded = compiled.decode(state)
    for p, (place, contents) in enumerate(zip(puzzle.places, decoded.places, strict=True)):
        symbols = (
            [puzzle.pieces[c - 1].symbol for c in contents]
            if place.stack
            else [puzzle.pieces[i].symbol for i, n in enumerate(contents) for _ in range(n)]
        )
        text = Text()
        for k, symbol in enumerate(symbols):
            text.append(" " if k else "")
            text.append(symbol, style=MOVED if (symbol, place.name) in arrived else "")
        if p == carrier_at and carrier is not None:
            text.append((" " if symbols else "") + f"({puzzle.counters[carrier].name})", style="cyan")
        out.append(text)
    return out


def counter_texts(compiled: CompiledPuzzle, state: bytes) -> list[tuple[str, Text]]:
    """The counters worth a column: numbers, and the cursor (the carrier is drawn with the places)."""
    out = []
    decoded = compiled.decode(state)
    for counter, value in zip(compiled.puzzle.counters, decoded.counters, strict=True):
        if counter.role == CARRIER:
            continue
        out.append((counter.name, Text(compiled.counter_text(counter.role, value))))
    return out


def describe(label: MoveLabel, compiled: CompiledPuzzle, short: bool = False) -> Text:
    """`jump ● 5 → 3`: the rule, then each moving piece (as drawn) with its cells; pieces
    crossing together are listed once with their destination; counters that changed."""
    puzzle = compiled.puzzle
    glyphs = {p.symbol: p.glyph for p in puzzle.pieces}
    text = Text() if short else Text(label.rule, style="bold")
    movers = label.movers
    places = {p.name for p in puzzle.places}
    if (
        movers
        and all(src in places and dst in places for _, src, dst in movers)
        and len({d for _, _, d in movers}) == 1
    ):
        who = " ".join(symbol for symbol, _, _ in movers)
        source = f" {movers[0][1]}" if len(movers) == 1 else ""  # a load shows only where it goes
        text.append(("" if short else "  ") + f"{who}{source} → {movers[0][2]}")
        return text
    parts: list[str] = []
    for symbol, src, dst, turned in _in_place(movers):
        shown = glyphs.get(symbol, symbol)
        if turned is not None:  # the piece on a cell became another: a coin turned over
            parts.append(f"{src} {shown}→{glyphs.get(turned, turned)}")
        elif src is None:
            parts.append(f"{shown} on {dst}" if short else f"{shown} appears at {dst}")
        elif dst is None:
            parts.append(f"{shown} off {src}" if short else f"{shown} leaves {src}")
        else:
            parts.append(f"{shown} {src}→{dst}" if short else f"{shown} {src} → {dst}")
    if label.at is not None:
        parts.append(label.at)
    changed = [(n, a, b) for n, a, b in label.changes if n != "cursor"]
    if changed:
        parts.append(" ".join(f"{n} {a}→{b}" for n, a, b in changed))
    if parts:
        text.append(("" if short else "  ") + ", ".join(parts))
    return text


def _in_place(
    movers: tuple[tuple[str, str | None, str | None], ...],
) -> list[tuple[str, str | None, str | None, str | None]]:
    """The movers, with a piece that left a cell and another that appeared on it joined into
    one change of that cell (symbol, cell, cell, the new symbol)."""
    appeared = {dst: symbol for symbol, src, dst in movers if src is None and dst is not None}
    out: list[tuple[str, str | None, str | None, str | None]] = []
    joined: set[str] = set()
    for symbol, src, dst in movers:
        if dst is None and src in appeared:
            out.append((symbol, src, src, appeared[src]))
            joined.add(src)
        elif not (src is None and dst in joined):
            out.append((symbol, src, dst, None))
    return [m for m in out if not (m[1] is None and m[2] in joined)]


def heading(puzzle: Puzzle, console: Console) -> None:
    title = Text(puzzle.title, style="bold")
    if puzzle.params:
        title.append("  " + " ".join(f"{k}={show(v)}" for k, v in puzzle.params.items()), style="cyan")  # type: ignore[arg-type]
    console.print(title)
    if puzzle.about:
        console.print(Text(puzzle.about, style="italic"))
    console.print()


# ---- a whole solution


def render(solved: Solved, console: Console, count: bool = False, reach: bool = False, explain: bool = False) -> None:
    compiled, result = solved.compiled, solved.result
    heading(solved.puzzle, console)
    if result.status == SOLVED:
        draw_solution(compiled, result.path, console, explain)
    report = solved.trajectories
    if report is not None and report.status == SOLVED:
        console.print()
        up_to = f", {report.classes_up_to_symmetry} up to symmetry" if report.classes_up_to_symmetry else ""
        console.print(
            Text(
                f"{report.solutions:,} shortest solutions follow {report.classes} distinct piece trajectories{up_to}:",
                style="bold",
            )
        )
        for number, path in enumerate(report.representatives, 1):
            console.print()
            console.print(Text(f"trajectory {number}", style="bold"))
            draw_solution(compiled, path, console)
    console.print(summary(solved, count, reach))


def draw_solution(compiled: CompiledPuzzle, path: Path, console: Console, explain: bool = False) -> None:
    """A board of one row (or a graph): one row per move in a table, with a column for each
    place and counter. A grid: the boards side by side, as the classic puzzle books print
    them, wrapped to the terminal's width. No board: one row per move with each place and
    counter."""
    puzzle = compiled.puzzle
    board = puzzle.board
    if explain:
        _explained(compiled, path, console)
        return
    if board is not None and puzzle.show == SHOW_LADDER:
        lines = ladder_lines(compiled, path)
        if lines is not None:
            for number, line in enumerate(lines):
                style = "bold" if number in (0, len(lines) - 1) else ""
                console.print(Text(line, style=style), no_wrap=True, crop=False, soft_wrap=True)
            console.print()
            return
    if board is not None and board.has_frame and board.rows > 1:
        draw_grid_solution(compiled, path, console)
        return
    table = Table(box=None, show_header=True, pad_edge=False, padding=(0, 1 if board is not None else 2))
    table.add_column("#", justify="right", style="dim")
    table.add_column("move", no_wrap=board is None)
    if board is not None:
        table.add_column(ruler(compiled, compiled.start), no_wrap=True)
    for place in puzzle.places:
        table.add_column(place.name, no_wrap=True)
    for name, _ in counter_texts(compiled, compiled.start):
        table.add_column(name, no_wrap=True, justify="right")

    def with_cost(text: Text, before: bytes, move: int) -> Text:
        if compiled.has_costs:
            text.append(f"  ({data.compiled_cost(compiled, before, move)})", style="dim")
        return text

    def row(number: str, move: Text, state: bytes, label: MoveLabel | None) -> list[Text | str]:
        cells: list[Text | str] = [number, move]
        if board is not None:
            cells.append(draw_cells(compiled, state, label))
        cells.extend(place_texts(compiled, state, label))
        cells.extend(text for _, text in counter_texts(compiled, state))
        return cells

    table.add_row(*row("", Text("start", style="bold"), compiled.start, None))
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        label = compiled.label(move, before)
        table.add_row(*row(str(number), with_cost(describe(label, compiled), before, move), after, label))
        before = after
    console.print(table)


def draw_grid_solution(compiled: CompiledPuzzle, path: Path, console: Console) -> None:
    def block(caption: Text, state: bytes, label: MoveLabel | None) -> list[Text]:
        lines = [caption, *draw_cells(compiled, state, label).split("\n")]
        for place, text in zip(compiled.puzzle.places, place_texts(compiled, state, label), strict=True):
            lines.append(Text(f"{place.name}: ").append_text(text))
        for name, text in counter_texts(compiled, state):
            lines.append(Text(f"{name} = ").append_text(text))
        return lines

    blocks: list[list[Text]] = [block(Text("start", style="bold"), compiled.start, None)]
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        label = compiled.label(move, before)
        caption = Text(f"{number} ", style="dim")
        caption.append_text(describe(label, compiled, short=True))
        blocks.append(block(caption, after, label))
        before = after
    width = max(max(line.cell_len for line in b) for b in blocks)
    arrow = " => "
    per_row = max(1, (console.width + len(arrow)) // (width + len(arrow)))
    for first in range(0, len(blocks), per_row):
        row = blocks[first : first + per_row]
        for line_no in range(max(len(b) for b in row)):
            line = Text()
            for i, b in enumerate(row):
                if i:
                    line.append(arrow if line_no == (len(b) + 1) // 2 else " " * len(arrow))
                part = b[line_no].copy() if line_no < len(b) else Text()
                part.pad_right(width - part.cell_len)
                line.append_text(part)
            console.print(line, no_wrap=True, crop=True)
        console.print()


def _explained(compiled: CompiledPuzzle, path: Path, console: Console) -> None:
    """Each state, then the moves a safety rule forbids from it (which rule, and where it
    fails), then the move taken."""
    from .explain import rejections

    def state_text(state: bytes, label: MoveLabel | None) -> Text:
        if compiled.puzzle.board is not None:
            return Text(data.board_text(compiled, state))
        return Text(" | ").join(
            Text(f"{p.name}: ").append_text(t)
            for p, t in zip(compiled.puzzle.places, place_texts(compiled, state, label), strict=True)
        )

    console.print(Text("start  ", style="bold").append_text(state_text(compiled.start, None)))
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        for rejection in rejections(compiled, before):
            console.print(
                Text(f"   ✗ {rejection.move}", style="red").append(
                    f"  breaks line {rejection.line} at {rejection.where}: {rejection.rule}", style="dim"
                )
            )
        label = compiled.label(move, before)
        console.print(
            Text(f"{number:>2}. ", style="bold")
            .append_text(describe(label, compiled, short=True))
            .append("  ")
            .append_text(state_text(after, label))
        )
        before = after


# ---- all solutions


class SolutionStream:
    """Solutions printed as they are found, side by side and wrapped to the terminal: with
    `show circle`, as the classic article prints them (the start cell's number, and under it
    the other cells read anticlockwise from the start); otherwise the final board."""

    GAP = "     "

    def __init__(self, compiled: CompiledPuzzle, console: Console):
        self.compiled = compiled
        self.console = console
        self.row: list[list[str]] = []
        self.circle = compiled.puzzle.show == SHOW_CIRCLE

    def block(self, path: Path) -> list[str]:
        final = path[-1][1] if path else self.compiled.start
        board = self.compiled.puzzle.board
        if board is None:
            return [data.board_text(self.compiled, final)]
        cells = [self.compiled.puzzle.piece(c).glyph if c else "_" for c in final[: self.compiled.cells]]
        if self.circle:
            rest = " ".join(reversed(cells[1:]))
            left = (len(rest) - 1) // 2
            return [" " * left + cells[0], "", rest]
        if board.has_frame and board.rows > 1:
            width = max(len(c) for c in cells)
            return [
                " ".join(
                    (cells[cell] if cell >= 0 else " ").rjust(width)
                    for cell in board.frame[r * board.cols : (r + 1) * board.cols]
                )
                for r in range(board.rows)
            ]
        return [" ".join(cells)]

    def add(self, path: Path) -> None:
        block = self.block(path)
        width = sum(max(len(line) for line in b) for b in self.row) + len(self.GAP) * len(self.row)
        if self.row and width + len(self.GAP) + max(len(line) for line in block) > self.console.width:
            self.flush()
        self.row.append(block)

    def flush(self) -> None:
        if not self.row:
            return
        widths = [max(len(line) for line in b) for b in self.row]
        for i in range(max(len(b) for b in self.row)):
            parts = [(b[i] if i < len(b) else "").ljust(w) for b, w in zip(self.row, widths, strict=True)]
            self.console.print(self.GAP.join(parts).rstrip(), highlight=False, soft_wrap=True)
        self.console.print()
        self.row = []


def all_summary(report: AllSolutions) -> Text:
    parts = []
    noun = lambda n: "solution" if n == 1 else "solutions"  # noqa: E731
    if report.status == LIMIT:
        parts.append(f"stopped: {report.limit_reason} after {report.count:,} {noun(report.count)}")
    elif report.count == 0:
        parts.append("no solution: every possibility explored")
    else:
        more = " (the first ones: --limit reached)" if report.stopped_at_limit else ""
        if report.symmetric and not report.stopped_at_limit:
            parts.append(f"{report.count:,} {noun(report.count)} up to symmetry ({report.in_all:,} in all)")
        else:
            parts.append(f"{report.count:,} {noun(report.count)}{more}")
    parts.append(f"{report.states:,} states visited")
    parts.append(f"{report.seconds:.3f} s (depth-first enumeration)")
    style = {SOLVED: "green", NO_SOLUTION: "yellow", LIMIT: "red"}[report.status]
    return Text(" · ".join(parts), style=style)


def summary(solved: Solved, count: bool, reach: bool) -> Text:
    result = solved.result
    parts: list[str] = []
    if result.status == SOLVED:
        moves = result.length
        parts.append(f"solved in {moves} move{'s' if moves != 1 else ''}")
        if result.cost is not None:
            parts.append(f"total cost {result.cost:,}")
        if result.count is not None:
            kind = "cheapest" if result.cost is not None else "shortest"
            parts.append(f"{result.count:,} distinct {kind} solution{'s' if result.count != 1 else ''}")
            if result.count_up_to_symmetry is not None:
                parts.append(f"{result.count_up_to_symmetry:,} up to symmetry")
    elif result.status == NO_SOLUTION:
        if result.reachable is not None:
            parts.append(f"no solution: all {result.reachable:,} reachable states explored, none is the goal")
        else:  # searching from both ends, the goal's side ran out first
            parts.append("no solution: every state that leads to the goal explored, the start is not one of them")
    elif result.status == LIMIT:
        parts.append(f"stopped: {result.limit_reason}")
    if result.reachable is not None and result.status != NO_SOLUTION:
        parts.append(f"{result.reachable:,} reachable states")
        if result.reachable_up_to_symmetry is not None:
            parts.append(f"{result.reachable_up_to_symmetry:,} up to symmetry")
    if result.reachable_goals is not None and reach and result.status != NO_SOLUTION:
        parts.append(f"{result.reachable_goals:,} of them goals")
    parts.append(f"{result.states:,} states explored")
    parts.append(f"{result.seconds:.3f} s ({result.method})")
    style = {SOLVED: "green", NO_SOLUTION: "yellow", LIMIT: "red"}[result.status]
    return Text(" · ".join(parts), style=style)


Drawer = Callable[[CompiledPuzzle, Path, Console], None]
