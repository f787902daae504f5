"""The solution as a person follows it: the start board, then each move named (rule, piece,
from, to) with the board after it and the moved piece marked; then the numbers."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import topology
from ..compiler import Compiled, CompiledPlacement, CompiledPlaces, CompiledPuzzle, MoveLabel
from ..language.expressions import show
from ..model import SHOW_CIRCLE, SHOW_LADDER, PlacementPuzzle, PlacesPuzzle, Puzzle
from ..runner import Solved
from ..search.result import LIMIT, NO_SOLUTION, SOLVED
from ..solutions import AllSolutions
from . import data
from .ladder import ladder_lines

EMPTY_GLYPH = "·"
MOVED = "bold black on yellow"
LEFT = "yellow"


def draw_board(compiled: CompiledPuzzle, state: bytes, label: MoveLabel | None = None) -> Text:
    """The board, one glyph per cell in a 3-character slot; the cells a move reached are
    bracketed and highlighted, so the moved piece shows without colour too."""
    puzzle = compiled.puzzle
    cols = puzzle.board.cols
    reached: set[int] = set()
    left: set[int] = set()
    if label is not None:
        touched = label.cells
        reached = {c for c in touched if state[c] != 0}
        left = {c for c in touched if state[c] == 0}
    text = Text()
    for i, code in enumerate(state):
        if i and i % cols == 0:
            text.append("\n")
        glyph = EMPTY_GLYPH if code == 0 else puzzle.piece(code).glyph
        if i in reached:
            text.append(f"[{glyph}]", style=MOVED)
        elif i in left:
            text.append(f" {glyph} ", style=LEFT)
        else:
            text.append(f" {glyph} ")
    return text


def ruler(compiled: CompiledPuzzle) -> Text:
    board = compiled.puzzle.board
    names = [topology.cell_name(board, c) for c in range(board.cols)]
    return Text("".join(n.center(3) for n in names), style="dim")


def describe(label: MoveLabel, compiled: CompiledPuzzle, short: bool = False) -> Text:
    """`jump ● 5 → 3`: the rule, then each moving piece (as drawn) with its cells."""
    glyphs = {p.symbol: p.glyph for p in compiled.puzzle.pieces}
    text = Text() if short else Text(label.rule, style="bold")
    for symbol, src, dst in label.movers:
        text.append(f"{glyphs.get(symbol, symbol)} " if short else f"  {glyphs.get(symbol, symbol)} ")
        if src is None:
            text.append(f"appears at {dst}")
        elif dst is None:
            text.append(f"leaves {src}")
        else:
            text.append(f"{src}→{dst}" if short else f"{src} → {dst}")
    return text


def heading(puzzle: Puzzle | PlacesPuzzle | PlacementPuzzle, console: Console) -> None:
    title = Text(puzzle.title, style="bold")
    if puzzle.params:
        title.append("  " + " ".join(f"{k}={show(v)}" for k, v in puzzle.params.items()), style="cyan")  # type: ignore[arg-type]
    console.print(title)
    if puzzle.about:
        console.print(Text(puzzle.about, style="italic"))
    console.print()


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


def draw_places_solution(
    compiled: CompiledPlaces, path: list[tuple[int, bytes]], console: Console, explain: bool = False
) -> None:
    """One row per crossing: who crosses, which way, and every place after it; the carrier
    is shown where it is, and the pieces that just arrived are highlighted."""
    puzzle = compiled.puzzle
    table = Table(box=None, show_header=True, pad_edge=False, padding=(0, 2))
    table.add_column("#", justify="right", style="dim")
    table.add_column("move", no_wrap=True)
    for place in puzzle.places:
        table.add_column(place, no_wrap=True)

    def cells(state: bytes, label: MoveLabel | None) -> list[Text]:
        arrived = {puzzle.people[i].name for i in label.cells} if label is not None else set()
        out = []
        for place, names in enumerate(compiled.contents(state)):
            text = Text()
            for k, name in enumerate(names):
                text.append(" " if k else "")
                text.append(name, style=MOVED if name in arrived and place == state[0] else "")
            if place == state[0]:
                text.append((" " if names else "") + f"({puzzle.carrier})", style="cyan")
            out.append(text)
        return out

    if explain:
        _explained(compiled, path, console, cells)
        return
    table.add_row("", Text("start", style="bold"), *cells(compiled.start, None))
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        label = compiled.label(move, before)
        who = " ".join(name for name, _, _ in label.movers)
        source, target = label.movers[0][1], label.movers[0][2]
        del source
        table.add_row(str(number), Text(f"{who} → {target}"), *cells(after, label))
        before = after
    console.print(table)


def _explained(
    compiled: CompiledPlaces,
    path: list[tuple[int, bytes]],
    console: Console,
    cells: Callable[[bytes, MoveLabel | None], list[Text]],
) -> None:
    """Each state, then the moves a safety rule forbids from it (which rule, and where it
    fails), then the move taken."""
    names = compiled.puzzle.places

    def board(state: bytes, label: MoveLabel | None) -> Text:
        return Text(" | ").join(Text(f"{n}: ").append_text(c) for n, c in zip(names, cells(state, label), strict=True))

    console.print(Text("start  ", style="bold").append_text(board(compiled.start, None)))
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        for rejection in compiled.rejections(before):
            who = " ".join(name for name, _, _ in rejection.move.movers)
            console.print(
                Text(f"   ✗ {who} → {rejection.move.movers[0][2]}", style="red").append(
                    f"  breaks line {rejection.line} at {rejection.where}: {rejection.rule}", style="dim"
                )
            )
        label = compiled.label(move, before)
        who = " ".join(name for name, _, _ in label.movers)
        console.print(
            Text(f"{number:>2}. {who} → {label.movers[0][2]}  ", style="bold").append_text(board(after, label))
        )
        before = after


class SolutionStream:
    """Solutions printed as they are found, side by side and wrapped to the terminal: with
    `show circle`, as the classic article prints them (the start cell's number, and under it
    the other cells read anticlockwise from the start); otherwise as the row of cells."""

    GAP = "     "

    def __init__(self, compiled: Compiled, console: Console):
        self.compiled = compiled
        self.console = console
        self.row: list[list[str]] = []
        self.circle = isinstance(compiled, CompiledPlacement) and compiled.puzzle.show == SHOW_CIRCLE

    def block(self, path: list[tuple[int, bytes]]) -> list[str]:
        final = path[-1][1] if path else self.compiled.start
        if not isinstance(self.compiled, CompiledPlacement):
            return [data.board_text(self.compiled, final)]
        cells = [c or "_" for c in self.compiled.cells(final)]
        if not self.circle:
            return [" ".join(cells)]
        rest = " ".join(reversed(cells[1:]))
        left = (len(rest) - 1) // 2
        return [" " * left + cells[0], "", rest]

    def add(self, path: list[tuple[int, bytes]]) -> None:
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
    if report.status == LIMIT:
        parts.append(f"stopped: {report.limit_reason} after {report.count:,} solutions")
    elif report.count == 0:
        parts.append("no solution: every possibility explored")
    else:
        more = " (the first ones: --limit reached)" if report.stopped_at_limit else ""
        up_to = " up to reversal" if report.reversal else ""
        parts.append(f"{report.count:,} solution{'s' if report.count != 1 else ''}{up_to}{more}")
    parts.append(f"{report.states:,} states visited")
    parts.append(f"{report.seconds:.3f} s (depth-first enumeration)")
    style = {SOLVED: "green", NO_SOLUTION: "yellow", LIMIT: "red"}[report.status]
    return Text(" · ".join(parts), style=style)


def draw_solution(compiled: Compiled, path: list[tuple[int, bytes]], console: Console, explain: bool = False) -> None:
    """A line board: one row per move in a table. A grid: the boards side by side, as the
    classic puzzle books print them, wrapped to the terminal's width. Places: one row per
    crossing with every place's pieces."""
    if isinstance(compiled, CompiledPlaces):
        draw_places_solution(compiled, path, console, explain)
        return
    if isinstance(compiled, CompiledPlacement):
        table = Table(box=None, show_header=True, pad_edge=False, padding=(0, 2))
        table.add_column("#", justify="right", style="dim")
        table.add_column("move")
        table.add_column("board (cursor in brackets)", no_wrap=True)
        before = compiled.start
        for number, (move, after) in enumerate(path, 1):
            label = compiled.label(move, before)
            cells = [c or "_" for c in compiled.cells(after)]
            cells[after[0]] = f"[{cells[after[0]]}]"
            table.add_row(str(number), f"{label.rule} {label.movers[0][0]} at {label.movers[0][2]}", " ".join(cells))
            before = after
        console.print(table)
        return
    if compiled.puzzle.board.rows > 1:
        draw_grid_solution(compiled, path, console)
        return
    if compiled.puzzle.show == SHOW_LADDER:
        lines = ladder_lines(compiled, path)
        if lines is not None:
            for number, line in enumerate(lines):
                style = "bold" if number in (0, len(lines) - 1) else ""
                console.print(Text(line, style=style), no_wrap=True, crop=False, soft_wrap=True)
            console.print()
            return
    table = Table(box=None, show_header=True, pad_edge=False, padding=(0, 1))
    table.add_column("#", justify="right", style="dim")
    table.add_column("move")
    table.add_column(ruler(compiled), no_wrap=True)
    table.add_row("", Text("start", style="bold"), draw_board(compiled, compiled.start))
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        label = compiled.label(move, before)
        table.add_row(str(number), describe(label, compiled), draw_board(compiled, after, label))
        before = after
    console.print(table)


def draw_grid_solution(compiled: CompiledPuzzle, path: list[tuple[int, bytes]], console: Console) -> None:
    blocks: list[list[Text]] = [[Text("start", style="bold"), *draw_board(compiled, compiled.start).split("\n")]]
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        label = compiled.label(move, before)
        caption = Text(f"{number} ", style="dim")
        caption.append_text(describe(label, compiled, short=True))
        blocks.append([caption, *draw_board(compiled, after, label).split("\n")])
        before = after
    width = max(max(line.cell_len for line in block) for block in blocks)
    arrow = " => "
    per_row = max(1, (console.width + len(arrow)) // (width + len(arrow)))
    for first in range(0, len(blocks), per_row):
        row = blocks[first : first + per_row]
        for line_no in range(len(row[0])):
            line = Text()
            for i, block in enumerate(row):
                if i:
                    line.append(arrow if line_no == (len(block) + 1) // 2 else " " * len(arrow))
                part = block[line_no].copy()
                part.pad_right(width - part.cell_len)
                line.append_text(part)
            console.print(line, no_wrap=True, crop=True)
        console.print()


def summary(solved: Solved, count: bool, reach: bool) -> Text:
    result = solved.result
    parts: list[str] = []
    if result.status == SOLVED:
        moves = result.length
        parts.append(f"solved in {moves} move{'s' if moves != 1 else ''}")
        if count and result.count is not None:
            parts.append(f"{result.count:,} distinct shortest solution{'s' if result.count != 1 else ''}")
            if result.count_up_to_symmetry is not None:
                parts.append(f"{result.count_up_to_symmetry:,} up to symmetry")
    elif result.status == NO_SOLUTION:
        parts.append(f"no solution: all {result.states:,} reachable states explored, none is the goal")
    elif result.status == LIMIT:
        parts.append(f"stopped: {result.limit_reason}")
    if reach and result.reachable is not None and result.status != NO_SOLUTION:
        parts.append(f"{result.reachable:,} reachable states")
        if result.reachable_up_to_symmetry is not None:
            parts.append(f"{result.reachable_up_to_symmetry:,} up to symmetry")
    parts.append(f"{result.states:,} states explored")
    parts.append(f"{result.seconds:.3f} s ({result.method})")
    style = {SOLVED: "green", NO_SOLUTION: "yellow", LIMIT: "red"}[result.status]
    return Text(" · ".join(parts), style=style)
