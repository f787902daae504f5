"""The solution as a person follows it: the start board, then each move named (rule, piece,
from, to) with the board after it and the moved piece marked; then the numbers."""

from __future__ import annotations

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import topology
from ..compiler import CompiledPuzzle, MoveLabel
from ..language.expressions import show
from ..runner import Solved
from ..search.result import LIMIT, NO_SOLUTION, SOLVED

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


def describe(label: MoveLabel, compiled: CompiledPuzzle) -> Text:
    """`jump ● 5 → 3`: the rule, then each moving piece (as drawn) with its cells."""
    glyphs = {p.symbol: p.glyph for p in compiled.puzzle.pieces}
    text = Text(label.rule, style="bold")
    for symbol, src, dst in label.movers:
        text.append(f"  {glyphs.get(symbol, symbol)} ")
        if src is None:
            text.append(f"appears at {dst}")
        elif dst is None:
            text.append(f"leaves {src}")
        else:
            text.append(f"{src} → {dst}")
    return text


def render(solved: Solved, console: Console, count: bool = False, reach: bool = False) -> None:
    puzzle, compiled, result = solved.puzzle, solved.compiled, solved.result
    heading = Text(puzzle.title, style="bold")
    if puzzle.params:
        heading.append("  " + " ".join(f"{k}={show(v)}" for k, v in puzzle.params.items()), style="cyan")  # type: ignore[arg-type]
    console.print(heading)
    if puzzle.about:
        console.print(Text(puzzle.about, style="italic"))
    console.print()
    if result.status == SOLVED:
        table = Table(
            box=box.SIMPLE_HEAD if puzzle.board.rows > 1 else None,
            show_header=puzzle.board.rows == 1,
            pad_edge=False,
            padding=(0, 1),
        )
        table.add_column("#", justify="right", style="dim")
        table.add_column("move")
        table.add_column(ruler(compiled) if puzzle.board.rows == 1 else "board", no_wrap=True)
        table.add_row("", Text("start", style="bold"), draw_board(compiled, compiled.start))
        before = compiled.start
        for number, (move, after) in enumerate(result.path, 1):
            label = compiled.label(move, before)
            table.add_row(str(number), describe(label, compiled), draw_board(compiled, after, label))  # type: ignore[arg-type]
            before = after  # type: ignore[assignment]
        console.print(table)
    console.print(summary(solved, count, reach))


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
