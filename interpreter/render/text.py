"""The solution as a person follows it: the start, then each move named (rule, pieces, from,
to) with the state after it and what changed marked; then the numbers.

One drawing serves every puzzle: the board (a row of cells with a ruler, or grids side by
side), then each place (bags listed, stacks bottom first, the carrier where it is) and each
counter. The amida ladder (`show ladder`) and the number circle (`show circle`) are drawn
as their articles print them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator

from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderableType, RenderHook
from rich.segment import Segment
from rich.text import Text

from ..compiler import CompiledPuzzle, MoveLabel
from ..escapes import UNSAFE, visible, visible_lines
from ..language.expressions import show
from ..model.puzzle import CARRIER, CURSOR, PROGRESS, SHOW_CIRCLE, SHOW_LADDER, Puzzle
from ..runner import Solved
from ..search import SearchResult
from ..search.result import LIMIT, NO_SOLUTION, SOLVED
from ..solutions import AllSolutions, broken_rule
from . import data
from .glyphs import UNICODE, Glyphs
from .ladder import ladder_lines
from .moves import describe
from .targets import SIDES, exits, targets

MOVED = "bold black on yellow"
STATUS_STYLE = {SOLVED: "green", NO_SOLUTION: "yellow", LIMIT: "red"}
LEFT = "yellow"

Path = list[tuple[int, bytes]]


# ---- pieces of a drawing


def glyph(compiled: CompiledPuzzle, code: int, glyphs: Glyphs = UNICODE) -> str:
    if code == 0:
        return glyphs.empty
    piece = compiled.puzzle.piece(code)
    return glyphs.piece(piece.symbol, piece.glyph)


def draw_cells(
    compiled: CompiledPuzzle,
    state: bytes,
    label: MoveLabel | None = None,
    glyphs: Glyphs = UNICODE,
    slot: int | None = None,
) -> Text:
    """The board, one glyph per cell in a 3-character slot (rows on separate lines, squares
    without a cell left blank); the cells a move filled are bracketed and highlighted, so the
    moved piece shows without colour too, and the cursor's cell is underlined. `slot`: a
    wider slot, the glyph in its middle (under a ruler of names wider than 3: `slot_width`)."""
    puzzle = compiled.puzzle
    board = puzzle.board
    assert board is not None
    reached: set[int] = set()
    left: set[int] = set()
    if label is not None:
        reached = {c for c in label.cells if state[c] != 0}
        left = {c for c in label.cells if state[c] == 0}
    cursor = _cursor(compiled, state)
    width = max([len(glyph(compiled, c, glyphs)) for c in set(state[: compiled.cells])] + [1])
    before = after = 0
    if slot is not None and slot > width + 2:
        before = (slot - width - 2) // 2
        after = slot - width - 2 - before
    text = Text()
    squares = board.frame if board.has_frame else tuple(range(board.size))
    cols = board.cols if board.has_frame else board.size
    wanted = targets(puzzle)
    leaving = {cell: SIDES.index(side) for cell, side in exits(puzzle)}
    margin = " " * (len(glyphs.exits[2]) + 1) if 2 in leaving.values() else ""
    slot_of = before + width + 2 + after
    if 0 in leaving.values():
        text.append(_beside(squares, cols, leaving, 0, glyphs.exits[0], margin, slot_of, before + 1) + "\n")
    for i, cell in enumerate(squares):
        if i and i % cols == 0:
            right = squares[i - 1]
            if leaving.get(right) == 3:
                text.append(" " + glyphs.exits[3], style="bold")
            text.append("\n")
        if i % cols == 0 and margin:
            text.append(f"{glyphs.exits[2]} " if leaving.get(cell) == 2 else margin, style="bold")
        if cell < 0:
            text.append(" " * slot_of)
            continue
        g = glyph(compiled, state[cell], glyphs).rjust(width)
        style = "underline" if cell == cursor else ""
        if state[cell] == 0 and cell in wanted:
            g, style = glyphs.target.rjust(width), style or "bold"
        text.append(" " * before)
        if cell in reached:
            text.append(f"[{g}]", style=MOVED)
        elif cell in left:
            text.append(f" {g} ", style=LEFT)
        else:
            text.append(f" {g} ", style=style)
        text.append(" " * after)
    if squares and leaving.get(squares[-1]) == 3:
        text.append(" " + glyphs.exits[3], style="bold")
    if 1 in leaving.values():
        text.append("\n" + _beside(squares, cols, leaving, 1, glyphs.exits[1], margin, slot_of, before + 1))
    return _rstrip_lines(text)


def _beside(
    squares: tuple[int, ...],
    cols: int,
    leaving: dict[int, int],
    side: int,
    mark: str,
    margin: str,
    slot: int,
    into: int,
) -> str:
    """The line above (or below) the board with an exit's mark over (under) its cell."""
    rows = [squares[i : i + cols] for i in range(0, len(squares), cols)]
    row = rows[0] if side == 0 else rows[-1]
    line = [" " * slot for _ in row]
    for k, cell in enumerate(row):
        if leaving.get(cell) == side:
            line[k] = (" " * into + mark).ljust(slot)
    return margin + "".join(line)


def _rstrip_lines(text: Text) -> Text:
    return Text("\n").join(stripped(line) for line in text.split("\n", allow_blank=True))


def stripped(text: Text) -> Text:
    """The text without trailing spaces (rich's rstrip works in place)."""
    text.rstrip()
    return text


def _cursor(compiled: CompiledPuzzle, state: bytes) -> int | None:
    index = compiled.puzzle.counter_index(CURSOR)
    if index is None:
        return None
    value = compiled.layout.reader(index)(state)
    return value if value >= 0 else None


def ruler(compiled: CompiledPuzzle, state: bytes, glyphs: Glyphs = UNICODE, slot: int | None = None) -> Text:
    """The cells' names over a row of cells drawn by `draw_cells` (with the same `slot`)."""
    board = compiled.puzzle.board
    assert board is not None
    columns = range(board.size if not board.has_frame else board.cols)
    if slot is not None:  # each name in the middle of its slot, as draw_cells puts a glyph
        names = [board.name(c) for c in columns]
        return Text("".join(" " * ((slot - len(n)) // 2) + n.ljust(slot - (slot - len(n)) // 2) for n in names), "dim")
    width = max([len(glyph(compiled, c, glyphs)) for c in set(state[: compiled.cells])] + [1]) + 2
    return Text("".join(board.name(c).center(width) for c in columns), style="dim")


def slot_width(compiled: CompiledPuzzle, glyphs: Glyphs = UNICODE) -> int | None:
    """The slot of a cell under a ruler whose names are wider than the 3 characters of a glyph
    and its brackets (a graph's `left`, `right`, `up`: run together, `leftright up` would
    name no cell), so that names stay a space apart and every glyph stays under its name; None
    where the names fit (the usual slot)."""
    board = compiled.puzzle.board
    assert board is not None
    columns = range(board.size if not board.has_frame else board.cols)
    widest = max((len(board.name(c)) for c in columns), default=0) + 1
    pieces = max(len(glyph(compiled, code, glyphs)) for code in range(len(compiled.puzzle.parts))) + 2
    return max(widest, pieces) if widest > pieces else None


def place_texts(
    compiled: CompiledPuzzle, state: bytes, label: MoveLabel | None = None, glyphs: Glyphs = UNICODE
) -> list[Text]:
    """Each place's pieces (a stack bottom first) as drawn, the carrier shown where it is, and
    the pieces that just arrived highlighted."""
    puzzle = compiled.puzzle
    drawn = {p.symbol: glyphs.listed(p.symbol, p.glyph) for p in puzzle.pieces}
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
            text.append(drawn[symbol], style=MOVED if (symbol, place.name) in arrived else "")
        if p == carrier_at and carrier is not None:
            text.append((" " if symbols else "") + f"({puzzle.counters[carrier].name})", style="cyan")
        out.append(text)
    return out


def counter_texts(compiled: CompiledPuzzle, state: bytes) -> list[tuple[str, Text]]:
    """The counters worth a column: numbers, and the cursor (the carrier is drawn with the places)."""
    out = []
    decoded = compiled.decode(state)
    for counter, value in zip(compiled.puzzle.counters, decoded.counters, strict=True):
        if counter.role in (CARRIER, PROGRESS):
            continue
        out.append((counter.name, Text(compiled.counter_text(counter.role, value))))
    return out


def heading(puzzle: Puzzle, console: Console, glyphs: Glyphs = UNICODE) -> None:
    """The title and parameters, the spec's `about`, and a legend of the pieces whose drawing
    does not say what they are (a glyph other than the symbol, or a description)."""
    title = Text(visible(puzzle.title), style="bold")
    params = [f"{k}={visible(show(v))}" for k, v in puzzle.shown_params.items()]  # type: ignore[arg-type]
    if params and title.cell_len + 2 + len(" ".join(params)) <= console.width:
        title.append("  " + " ".join(params), style="cyan")
        params = []
    print_line(console, title)
    if params:  # too wide for one line: the parameters under the title, folded between them
        print_parts(console, params, " ", style="cyan")
    if puzzle.about:
        print_parts(console, visible(puzzle.about).split(" "), " ", style="italic")
    legend = _legend(puzzle, glyphs)
    if legend:
        print_parts(console, legend, glyphs.separator, style="dim")
    console.print()


def _legend(puzzle: Puzzle, glyphs: Glyphs) -> list[str]:
    """One entry per glyph that is not the piece's own letter or digit (● ○, or `v` drawn for
    D): what it stands for; the goal's targets and exits, where it has them (render/targets.py)."""
    parts: dict[str, str] = {}
    for piece in puzzle.pieces:
        drawn = glyphs.piece(piece.symbol, piece.glyph)
        if (piece.glyph.isalnum() and piece.glyph == piece.symbol) or drawn in parts:
            continue
        name = piece.description if piece.description not in ("piece", "number") else piece.kind
        parts[drawn] = f"{drawn} {visible(name)}"
    if len(parts) > 12:
        return []
    wanted = sorted({puzzle.piece(code).symbol for code in targets(puzzle).values()})
    if wanted:
        whose = " ".join(glyphs.piece(p.symbol, p.glyph) for p in puzzle.pieces if p.symbol in wanted)
        parts[glyphs.target] = f"{glyphs.target} target of {whose}"
    leaving = exits(puzzle)
    if leaving:
        marks = "".join(sorted({glyphs.exits[SIDES.index(side)] for _, side in leaving}))
        parts[marks] = f"{marks} exit"
    return list(parts.values())


def print_line(console: Console, line: Text | str) -> None:
    """One line exactly as built: never wrapped inside, never cropped (a terminal narrower than
    it folds it; a file keeps it whole). A string is printed as it reads: brackets and colons
    in a spec's names are not rich's markup or emoji codes."""
    text = Text(line) if isinstance(line, str) else line
    console.print(text, no_wrap=True, crop=False, soft_wrap=True, highlight=False)


class LineBatch:
    """Lines printed a batch at a time: rich spends most of a line's time in `Console.print`
    itself, so a solution of 100,000 moves printed a line a call took half a minute. Each
    batch is the lines joined by newlines, printed as `print_line` prints one (the same
    text); `flush` prints what is left."""

    SIZE = 256

    def __init__(self, console: Console) -> None:
        self.console = console
        self.lines: list[Text] = []

    def add(self, line: Text | str) -> None:
        self.lines.append(Text(line) if isinstance(line, str) else line)
        if len(self.lines) >= self.SIZE:
            self.flush()

    def flush(self) -> None:
        if self.lines:
            print_line(self.console, Text("\n").join(self.lines))
            self.lines = []


def print_parts(console: Console, parts: list[str], separator: str, style: str = "") -> None:
    """Parts joined by a separator, wrapped only between parts, never inside one (`0.406 s`
    stays on one line)."""
    width = max(20, console.width)
    mark = len(separator.rstrip())  # what a line that goes on ends with
    line = ""
    for number, part in enumerate(parts):
        if len(part) > width:  # a part longer than a line: folded at its own spaces
            if line:
                print_line(console, Text((line + separator).rstrip(), style=style))
            *whole, line = textwrap.wrap(part, width, break_long_words=False) or [part]
            for piece in whole:
                print_line(console, Text(piece, style=style))
            continue
        candidate = f"{line}{separator}{part}" if line else part
        more = mark if number < len(parts) - 1 else 0
        if line and len(candidate) + more > width:
            ending = (line + separator).rstrip()  # the separator says "more", where it fits
            print_line(console, Text(ending if len(ending) <= width else line, style=style))
            line = part
        else:
            line = candidate
    if line:
        print_line(console, Text(line.rstrip(), style=style))


class VisibleControls(RenderHook):
    """A console's render hook (console.push_render_hook): every piece of text it prints is
    passed through `visible_lines`, wherever it came from; rich's own control sequences
    (colours, the cursor moves of a progress line) are not text and pass as they are."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Visible(renderable) for renderable in renderables]


class _Visible:
    def __init__(self, renderable: RenderableType):
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        for segment in console.render(self.renderable, options):
            if segment.control or not UNSAFE.search(segment.text.replace("\n", "")):
                yield segment
            else:
                yield Segment(visible_lines(segment.text), segment.style)


# ---- a whole solution


def render(
    solved: Solved,
    console: Console,
    count: bool = False,
    reach: bool = False,
    explain: bool = False,
    glyphs: Glyphs = UNICODE,
    headed: bool = False,
) -> None:
    """The whole report; `headed`: the heading was printed before the search began."""
    compiled, result = solved.compiled, solved.result
    if not headed:
        heading(solved.puzzle, console, glyphs)
    if result.status == SOLVED:
        draw_solution(compiled, result.path, console, explain, glyphs)
    elif result.status == NO_SOLUTION and explain:
        draw_no_solution(compiled, console, glyphs)
    report = solved.trajectories
    if report is not None and report.status == SOLVED:
        console.print()
        up_to = f", {report.classes_up_to_symmetry} up to symmetry" if report.classes_up_to_symmetry else ""
        kind = "cheapest" if compiled.puzzle.search == "cheapest" else "shortest"
        print_parts(
            console,
            [
                f"{report.solutions:,} {kind} solution{'s' if report.solutions != 1 else ''} "
                f"follow{'s' if report.solutions == 1 else ''} {report.classes} distinct piece "
                f"trajector{'ies' if report.classes != 1 else 'y'}{up_to}:"
            ],
            glyphs.separator,
            style="bold",
        )
        for number, path in enumerate(report.representatives, 1):
            console.print()
            console.print(Text(f"trajectory {number}", style="bold"))
            draw_solution(compiled, path, console, glyphs=glyphs)
    if reach and result.layers is not None:
        draw_depth(solved, console, glyphs)
    parts, style = summary_parts(solved, count, reach)
    print_parts(console, parts, glyphs.separator, style)


SHOWN_LAYERS = 64  # more layers than this are listed in the JSON only


def draw_depth(solved: Solved, console: Console, glyphs: Glyphs = UNICODE) -> None:
    """How far the reachable states lie: one of the farthest, drawn, and how many states
    each distance holds."""
    compiled, result = solved.compiled, solved.result
    assert result.layers is not None and result.depth is not None
    depth, layers = result.depth, result.layers
    away = "from the goal" if result.to_goal else "from the start"
    if result.farthest is not None and depth > 0:
        caption = Text(f"a farthest state: {depth} move{'s' if depth != 1 else ''} {away}", style="bold")
        for line in state_block(compiled, caption, result.farthest, None, glyphs):
            print_line(console, stripped(line))
        console.print()
    if len(layers) <= SHOWN_LAYERS:
        sizes = [f"{size:,}," for size in layers[:-1]] + [f"{layers[-1]:,}"]
        print_parts(console, [f"states at each distance {away} (0 to {depth}):", *sizes], " ", "dim")
    else:
        print_parts(console, [f"{len(layers):,} distances {away}: their sizes are in --format json"], "", "dim")


def draw_solution(
    compiled: CompiledPuzzle, path: Path, console: Console, explain: bool = False, glyphs: Glyphs = UNICODE
) -> None:
    """A board of one row (or a graph): one row per move, with a column for each place and
    counter. A grid: the boards side by side, as the classic puzzle books print them, wrapped
    to the width. No board: one row per move with each place and counter."""
    puzzle = compiled.puzzle
    board = puzzle.board
    if explain:
        _explained(compiled, path, console, glyphs)
        return
    if compiled.filling is not None:  # a filling's solution is its board: the order it was filled in means nothing
        stream = SolutionStream(compiled, console, glyphs)
        stream.add(path)
        stream.flush()
        return
    if board is not None and puzzle.show == SHOW_LADDER:
        lines = ladder_lines(compiled, path)
        if lines is not None:
            for number, line in enumerate(lines):
                print_line(console, Text(line.rstrip(), style="bold" if number in (0, len(lines) - 1) else ""))
            console.print()
            return
    if board is not None and board.has_frame and board.rows > 1:
        draw_grid_solution(compiled, path, console, glyphs)
        return
    draw_move_table(compiled, path, console, glyphs)


def draw_move_table(compiled: CompiledPuzzle, path: Path, console: Console, glyphs: Glyphs = UNICODE) -> None:
    """One row per move: number, rule, what moved, then the board, each place and each
    counter after it. When the rows are wider than the output, each move is folded onto two
    lines (what moved, then the state under it), so that nothing is ever cut off."""
    puzzle = compiled.puzzle
    board = puzzle.board
    counters = [name for name, _ in counter_texts(compiled, compiled.start)]
    slot = slot_width(compiled, glyphs) if board is not None else None
    header_state: list[Text] = [ruler(compiled, compiled.start, glyphs, slot)] if board is not None else []
    header_state += [Text(place.name, style="dim") for place in puzzle.places]
    header_state += [Text(name, style="dim") for name in counters]
    right = {len(header_state) - 1 - i for i in range(len(counters))}

    def state_cells(state: bytes, label: MoveLabel | None) -> list[Text]:
        cells = [draw_cells(compiled, state, label, glyphs, slot)] if board is not None else []
        cells.extend(place_texts(compiled, state, label, glyphs))
        cells.extend(text for _, text in counter_texts(compiled, state))
        return cells

    heads: list[list[Text]] = [[Text(""), Text("start", style="bold"), Text("")]]
    states: list[list[Text]] = [state_cells(compiled.start, None)]
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        label = compiled.label(move, before, after)
        what = describe(label, compiled, drawn=glyphs)
        if compiled.has_costs:
            what.append(f"  ({data.compiled_cost(compiled, before, move)})", style="dim")
        heads.append([Text(str(number), style="dim"), Text(label.rule, style="bold"), what])
        states.append(state_cells(after, label))
        before = after

    out = LineBatch(console)
    head_widths = _widths(heads)
    state_widths = _widths([header_state, *states])
    gap = "  " if board is None else " "
    joined = sum(head_widths) + 2 * len(head_widths) + sum(state_widths) + len(gap) * len(state_widths)
    if joined <= console.width:
        out.add(
            _row(
                [Text(""), Text("move", style="dim"), Text(""), *header_state],
                [*head_widths, *state_widths],
                {0} | {3 + i for i in right},
                ["  ", "  ", "  ", *[gap] * len(state_widths)],
            ),
        )
        for head, state in zip(heads, states, strict=True):
            out.add(
                _row(
                    [*head, *state],
                    [*head_widths, *state_widths],
                    {0} | {3 + i for i in right},
                    ["  ", "  ", "  ", *[gap] * len(state_widths)],
                ),
            )
        out.flush()
        return
    indent = " " * (head_widths[0] + 2)
    folded = len(indent) + sum(state_widths) + len(gap) * (len(state_widths) - 1)
    if folded <= console.width:
        out.add(Text(indent).append_text(_row(header_state, state_widths, right, [gap] * len(state_widths))))
        for head, state in zip(heads, states, strict=True):
            out.add(_row(head, head_widths, {0}, ["  ", "  ", "  "]))
            out.add(Text(indent).append_text(_row(state, state_widths, right, [gap] * len(state_widths))))
        out.flush()
        return
    # narrower still: each place and counter on a line of its own under the move, named
    names = [Text("board", style="dim")] if board is not None else []
    names += [Text(place.name, style="dim") for place in puzzle.places] + [Text(n, style="dim") for n in counters]
    room = max(12, console.width - len(indent))
    for head, state in zip(heads, states, strict=True):
        out.add(_row(head, head_widths, {0}, ["  ", "  ", "  "]))
        values = list(zip(names, state, strict=True))
        if board is not None:  # the board as a ruler over its cells, cut into pieces that fit
            for names_part, cells_part in _cut(header_state[0], values.pop(0)[1], room):
                out.add(stripped(Text(indent).append_text(names_part)))
                out.add(stripped(Text(indent).append_text(cells_part)))
        for name, value in values:
            out.add(stripped(Text(indent).append_text(name).append(": ").append_text(value)))
    out.flush()


def _cut(ruler: Text, cells: Text, room: int) -> list[tuple[Text, Text]]:
    """A ruler and the row of cells under it, cut into pieces at most `room` wide, where both
    have a space (between two columns), so that every piece keeps its cells under their names."""
    length = max(ruler.cell_len, cells.cell_len)
    ruler, cells = ruler.copy(), cells.copy()
    ruler.pad_right(length - ruler.cell_len)
    cells.pad_right(length - cells.cell_len)
    pieces = []
    start = 0
    while start < length:
        end = min(length, start + room)
        if end < length:
            gaps = [i for i in range(start + 1, end) if ruler.plain[i] == " " and cells.plain[i] == " "]
            end = gaps[-1] if gaps else end
        pieces.append((ruler[start:end], cells[start:end]))
        start = end
    return pieces


def _widths(rows: list[list[Text]]) -> list[int]:
    return [max(row[i].cell_len for row in rows) for i in range(len(rows[0]))] if rows else []


def _row(cells: list[Text], widths: list[int], right: set[int], gaps: list[str]) -> Text:
    """Cells padded to their columns (right-aligned where asked), trailing spaces dropped."""
    line = Text()
    for i, (cell, width) in enumerate(zip(cells, widths, strict=True)):
        if i:
            line.append(gaps[i - 1])
        part = cell.copy()
        pad = " " * (width - part.cell_len)
        line.append_text(Text(pad).append_text(part) if i in right else part.append(pad))
    return stripped(line)


def state_block(
    compiled: CompiledPuzzle, caption: Text, state: bytes, label: MoveLabel | None, glyphs: Glyphs = UNICODE
) -> list[Text]:
    """One state as lines under a caption: the board, then each place and counter."""
    lines = [caption]
    if compiled.puzzle.board is not None:
        lines.extend(draw_cells(compiled, state, label, glyphs).split("\n"))
    for place, text in zip(compiled.puzzle.places, place_texts(compiled, state, label, glyphs), strict=True):
        lines.append(Text(f"{place.name}: ").append_text(text))
    for name, text in counter_texts(compiled, state):
        lines.append(Text(f"{name} = ").append_text(text))
    return lines


def draw_grid_solution(compiled: CompiledPuzzle, path: Path, console: Console, glyphs: Glyphs = UNICODE) -> None:
    def block(caption: Text, state: bytes, label: MoveLabel | None) -> list[Text]:
        return state_block(compiled, caption, state, label, glyphs)

    blocks: list[list[Text]] = [block(Text("start", style="bold"), compiled.start, None)]
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        label = compiled.label(move, before, after)
        caption = Text(f"{number} ", style="dim")
        caption.append(label.rule, style="bold").append(" ")
        caption.append_text(describe(label, compiled, short=True, drawn=glyphs))
        blocks.append(block(caption, after, label))
        before = after
    width = max(max(line.cell_len for line in b) for b in blocks)
    arrow = glyphs.between
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
            print_line(console, stripped(line))
        console.print()


def _explained(compiled: CompiledPuzzle, path: Path, console: Console, glyphs: Glyphs = UNICODE) -> None:
    """Each state drawn, then the moves a safety rule forbids from it (which rule, and where
    it fails), then the move taken: every line folded to the width."""
    before = compiled.start
    caption = Text("start", style="bold")
    label: MoveLabel | None = None
    for number, (move, after) in enumerate([*path, (None, None)], 1):
        for line in state_block(compiled, caption, before, label, glyphs):
            print_line(console, stripped(line))
        if move is None or after is None:  # the goal: what it forbids no longer matters
            console.print()
            break
        _forbidden(compiled, before, console, glyphs)
        console.print()
        label = compiled.label(move, before, after)
        caption = Text(f"{number}. ", style="bold").append(label.rule + " ", style="bold")
        caption.append_text(describe(label, compiled, short=True, drawn=glyphs))
        before = after


def _forbidden(compiled: CompiledPuzzle, state: bytes, console: Console, glyphs: Glyphs) -> None:
    """The moves a safety rule forbids from `state`, each with the rule and where it fails
    (`explain` imported here and in `draw_no_solution`: only --explain needs it)."""
    from .explain import rejections

    for rejection in rejections(compiled, state):
        line = Text(f"  {glyphs.forbidden} {rejection.move}", style="red")
        line.append(f"  breaks line {rejection.line} at {rejection.where}: {visible(rejection.rule)}", style="dim")
        print_folded(console, line, indent=4)


def print_folded(console: Console, line: Text, indent: int = 4) -> None:
    """A long line of words folded at spaces to the width, the lines after the first indented
    (a word longer than a line is cut)."""
    width = max(20, console.width)
    plain = line.plain
    start, room, first = 0, width, True
    while start < len(plain):
        if len(plain) - start <= room:
            end = len(plain)
        else:
            end = plain.rfind(" ", start, start + room + 1)
            end = end if end > start else start + room
        piece = line[start:end]
        print_line(console, stripped(piece if first else Text(" " * indent).append_text(piece)))
        start = end + 1 if plain[end : end + 1] == " " else end
        room, first = width - indent, False


def draw_no_solution(compiled: CompiledPuzzle, console: Console, glyphs: Glyphs = UNICODE) -> None:
    """`--explain` where there is no solution: how near the reachable states come to the goal,
    what part of the goal no state reaches, and, from one of the nearest, the moves a safety
    rule forbids (the reason it goes no further)."""
    from .explain import nearest, rejections

    found = nearest(compiled)
    among = "" if found.complete else f" (among the first {found.explored:,} states)"
    total = len(found.parts)
    if found.never:
        print_folded(console, Text(f"No state reached{among} has this part of the goal:", style="bold"))
        for part in found.never:
            print_folded(console, Text(f"  {glyphs.forbidden} {visible(part.words)}"))
        console.print()
    caption = Text(f"The nearest to the goal{among} have {found.best} of its {total} parts; one of them:", style="bold")
    for line in state_block(compiled, caption, found.state, None, glyphs):
        print_folded(console, stripped(line))
    missing = [part.words for part in found.parts if not part.holds(found.state)]
    if missing:
        print_folded(console, Text("  still missing: " + ", ".join(visible(m) for m in missing), style="dim"))
    if rejections(compiled, found.state):
        print_folded(console, Text("  from there, a safety rule forbids:", style="dim"))
        _forbidden(compiled, found.state, console, glyphs)
    elif not compiled.expand(found.state):
        print_folded(console, Text("  from there, no move can be made", style="dim"))
    else:
        print_folded(console, Text("  from there, no move is forbidden: each leads to a state no nearer", style="dim"))
    console.print()


# ---- all solutions


class SolutionStream:
    """Solutions printed as they are found, side by side and wrapped to the width: with
    `show circle`, as the classic article prints them (the start cell's number, and under it
    the other cells read anticlockwise from the start); otherwise the final board."""

    GAP = "     "

    def __init__(self, compiled: CompiledPuzzle, console: Console, glyphs: Glyphs = UNICODE):
        self.compiled = compiled
        self.console = console
        self.glyphs = glyphs
        self.row: list[list[str]] = []
        self.circle = compiled.puzzle.show == SHOW_CIRCLE

    def block(self, path: Path) -> list[str]:
        final = path[-1][1] if path else self.compiled.start
        board = self.compiled.puzzle.board
        if board is None:  # places and counters: folded between them where the line is too wide
            return textwrap.wrap(
                data.board_text(self.compiled, final), max(20, self.console.width), break_long_words=False
            )
        cells = [glyph(self.compiled, c, self.glyphs) if c else "_" for c in final[: self.compiled.cells]]
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
                ).rstrip()
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
        lines = []
        for i in range(max(len(b) for b in self.row)):
            parts = [(b[i] if i < len(b) else "").ljust(w) for b, w in zip(self.row, widths, strict=True)]
            lines.append(self.GAP.join(parts).rstrip())
        print_line(self.console, "\n".join(lines) + "\n")  # one call: see LineBatch
        self.row = []


class MoveListStream:
    """Shortest solutions printed as they are found: each a numbered list of its moves, wrapped
    between moves with a hanging indent; with `draw`, each drawn move by move instead."""

    def __init__(self, compiled: CompiledPuzzle, console: Console, glyphs: Glyphs = UNICODE, draw: bool = False):
        self.compiled = compiled
        self.console = console
        self.glyphs = glyphs
        self.draw = draw
        self.number = 0

    def add(self, path: Path) -> None:
        self.number += 1
        if self.draw:
            print_line(self.console, Text(f"solution {self.number}", style="bold"))
            draw_solution(self.compiled, path, self.console, glyphs=self.glyphs)
            self.console.print()
            return
        steps = []
        before = self.compiled.start
        for move, after in path:
            steps.append(
                describe(self.compiled.label(move, before, after), self.compiled, short=True, drawn=self.glyphs).plain
            )
            before = after
        self._wrapped(f"{self.number:>3}  ", steps or ["(the start is already a solution)"])

    def _wrapped(self, lead: str, steps: list[str]) -> None:
        width = max(20, self.console.width)
        separator = self.glyphs.separator
        line = lead + steps[0]
        for step in steps[1:]:
            candidate = f"{line}{separator}{step}"
            if len(candidate) > width:
                print_line(self.console, (line + separator).rstrip())
                line = " " * len(lead) + step
            else:
                line = candidate
        print_line(self.console, line.rstrip())

    def flush(self) -> None:
        if self.number and not self.draw:
            self.console.print()


def _further(reason: str | None) -> str:
    """How to let the search go further than the limit it stopped at (the state and memory
    limits have defaults a user may not know of)."""
    if reason is None:
        return ""
    if reason.startswith("state limit of"):
        return " (--max-states N goes further)"
    if reason.startswith("memory limit of"):
        return " (--max-memory MB goes further)"
    return ""


def all_summary_parts(report: AllSolutions) -> tuple[list[str], str]:
    parts = []
    noun = lambda n: "solution" if n == 1 else "solutions"  # noqa: E731
    if report.status == LIMIT:
        parts.append(
            f"stopped: {report.limit_reason}{_further(report.limit_reason)} after {report.count:,} {noun(report.count)}"
        )
    elif report.count == 0:
        parts.append(
            f"no solution: {report.broken.said}" if report.broken else "no solution: every possibility explored"
        )
    elif report.total is not None:
        parts.extend(_shortest_parts(report, noun))
    else:
        if report.stopped_at_limit:
            first = "the first solution" if report.count == 1 else f"the first {report.count:,} solutions"
            classes = ", one of each symmetry class" if report.symmetric else ""
            parts.append(f"{first}{classes}: --limit reached, no more looked for")
        elif report.symmetric:
            parts.append(f"{report.count:,} {noun(report.count)} up to symmetry ({report.in_all:,} in all)")
        else:
            parts.append(f"{report.count:,} {noun(report.count)}")
        if report.objective:
            parts.append(report.objective)
    if report.symmetry_note is not None:
        parts.append(report.symmetry_note)
    parts.append(f"{report.states:,} states {'visited' if report.total is None else 'explored'}")
    parts.append(f"{report.seconds:.3f} s" + (f" ({report.method})" if report.method else ""))
    return parts, STATUS_STYLE[report.status]


def _shortest_parts(report: AllSolutions, noun: Callable[[int], str]) -> list[str]:
    """`2 shortest solutions of 15 moves`, `the first 10 of 1,234 ...`, `3 up to symmetry`."""
    assert report.total is not None
    kind = "cheapest" if report.cost is not None else "shortest"
    size = f"{report.length} move{'s' if report.length != 1 else ''}"
    if report.cost is not None:
        size += f", cost {report.cost:,}"
    if report.stopped_at_limit:
        shown = f"the first {report.count:,} of {report.total:,} {kind} {noun(report.total)} ({size}): --limit reached"
        return [shown + (", one of each symmetry class" if report.symmetric else "")]
    if report.symmetric:
        return [f"{report.count:,} {kind} {noun(report.count)} up to symmetry ({report.total:,} in all)", size]
    return [f"{report.count:,} {kind} {noun(report.count)}", size]


def all_summary(report: AllSolutions, console: Console, glyphs: Glyphs = UNICODE) -> None:
    parts, style = all_summary_parts(report)
    print_parts(console, parts, glyphs.separator, style)


def _states(count: int) -> str:
    return "state" if count == 1 else "states"


def replay_parts(
    compiled: CompiledPuzzle, path: Path, reached: bool, best: SearchResult | None
) -> tuple[list[str], str]:
    """A replayed solution's verdict: whether its moves reach the goal, and against the
    shortest (or cheapest) solution the engine finds."""
    moves = f"{len(path):,} move{'s' if len(path) != 1 else ''}"
    if not reached:
        return [f"{moves} played: the goal is not reached"], STATUS_STYLE[NO_SOLUTION]
    parts = [f"the goal is reached in {moves}"]
    cost = data.path_cost(compiled, path) if compiled.has_costs else None
    if cost is not None:
        parts.append(f"total cost {cost:,}")
    if best is not None and best.status == SOLVED:
        if compiled.has_costs and best.cost is not None:
            verdict = "as cheap as can be" if cost == best.cost else f"the cheapest costs {best.cost:,}"
        else:
            shortest = len(best.path)
            verdict = "as short as can be" if shortest == len(path) else f"the shortest takes {shortest}"
        parts.append(f"{verdict} ({best.method})")
    elif best is not None and best.status == LIMIT:
        parts.append(f"the shortest is not known: {best.limit_reason}")
    return parts, STATUS_STYLE[SOLVED]


def summary_parts(solved: Solved, count: bool, reach: bool) -> tuple[list[str], str]:
    result = solved.result
    parts: list[str] = []
    if result.status == SOLVED and solved.compiled.filling is not None:
        parts.append("solved")
        final = result.path[-1][1] if result.path else solved.compiled.start
        best = data.objective_words(solved.compiled, data.objective_value(solved.compiled, final))
        if best:
            parts.append(best)
        kind = "solution" if not best else "solution of that value"
        if result.unique is not None:
            parts.append(f"the only {kind}" if result.unique else f"not the only {kind}")
        elif result.unique_unknown is not None:
            parts.append(f"whether it is the only {kind} is not known: {result.unique_unknown}")
    elif result.status == SOLVED:
        moves = result.length
        parts.append(f"solved in {moves:,} move{'s' if moves != 1 else ''}")
        if result.cost is not None:
            parts.append(f"total cost {result.cost:,}")
        if result.count is not None:
            kind = "cheapest" if result.cost is not None else "shortest"
            parts.append(f"{result.count:,} distinct {kind} solution{'s' if result.count != 1 else ''}")
            if result.count_up_to_symmetry is not None:
                parts.append(f"{result.count_up_to_symmetry:,} up to symmetry")
    elif result.status == NO_SOLUTION:
        if solved.compiled.tiling is not None and result.reachable is None:
            parts.append("no solution: the pieces cannot cover the cells")
        elif solved.compiled.filling is not None and result.reachable is None:
            broken = broken_rule(solved.compiled)
            parts.append(f"no solution: {broken.said if broken else 'no filling keeps every rule'}")
        elif result.proof is not None:
            parts.append(f"no solution: {result.proof}")
        elif result.dead_pruned and result.dead_at_start:
            parts.append("no solution: the derived tables show the start can never reach the goal")
        elif result.dead_pruned:
            parts.append("no solution: every state explored but those the derived tables show can never reach the goal")
        elif result.reachable is not None and result.to_goal:
            parts.append("no solution: the start is not one of the states that can reach the goal")
        elif result.reachable is not None:
            parts.append(f"no solution: all {result.reachable:,} reachable states explored, none is the goal")
        else:  # searching from both ends, the goal's side ran out first
            parts.append("no solution: every state that leads to the goal explored, the start is not one of them")
    elif result.status == LIMIT:
        parts.append(f"stopped: {result.limit_reason}{_further(result.limit_reason)}")
    if result.reachable is not None and result.to_goal:
        parts.append(f"{result.reachable:,} {_states(result.reachable)} can reach the goal")
    elif result.reachable is not None and result.status != NO_SOLUTION:
        parts.append(f"{result.reachable:,} reachable {_states(result.reachable)}")
        if result.reachable_up_to_symmetry is not None:
            parts.append(f"{result.reachable_up_to_symmetry:,} up to symmetry")
    if result.depth is not None and reach:
        parts.append(f"depth {result.depth:,}")
    if result.reachable_goals is not None and reach and result.status != NO_SOLUTION:
        parts.append(f"{result.reachable_goals:,} of them goals")
    if result.symmetry_note is not None:
        parts.append(f"not counted up to symmetry: {result.symmetry_note}")
    parts.append(f"{result.states:,} {_states(result.states)} explored")
    if result.bytes_per_state is not None:
        parts.append(f"{result.bytes_per_state:.0f} bytes a state")
    if result.heuristic_about:
        parts.append(f"{result.heuristic_about}, {result.shown_at_start} at the start")
    parts.append(f"{result.seconds:.3f} s" + (f" ({result.method})" if result.method else ""))
    return parts, STATUS_STYLE[result.status]
