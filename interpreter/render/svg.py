"""A solution as a picture: an SVG strip of boards, one per state, each captioned with the move
that led to it, wrapped into rows; an amida-kuji solution as its ladder.

Pieces are discs with their symbol (or number) written on them, dark for pieces drawn ● and
light for pieces drawn ○ (as the text drawing shows them), a colour of their own otherwise,
so that the picture reads without any particular font. The cells a move filled are shaded,
the cells it emptied outlined, as the text drawing brackets them."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from ..compiler import CompiledPuzzle, MoveLabel
from ..escapes import visible
from ..language.expressions import show
from ..model.board import GRAPH, RING, Board
from ..model.puzzle import (
    CARRIER,
    CURSOR,
    EMPTY,
    NUMBER,
    PROGRESS,
    SHOW_LADDER,
    Carry,
    PieceType,
    PlaceLoc,
    Put,
    Puzzle,
    Toggle,
    VarLoc,
)
from .glyphs import Glyphs
from .ladder import pack, rungs
from .moves import describe
from .targets import exits, targets
from .xml_text import escape, quoteattr

Path = list[tuple[int, bytes]]

CELL = 40
GAP = 28  # between panels
ROW_WIDTH = 1200  # panels wrap to a new row past this width
CAPTION = 18
RIVER = 52  # the water between two places a carrier crosses between
CARD = 10  # the margin of a card that holds gauges alone
EXIT = 16  # room past the board's edge for an exit's arrow
BOX_TOP = 18  # a place's box starts under its name
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
DARK_FILL, LIGHT_FILL = "#263238", "white"  # pieces drawn ● and ○
MOVED, LEFT, BOARD, LINES, WALL = "#ffd54f", "#9e9e9e", "#f3efe6", "#8d8577", "#5d4037"
DARK = set("●■♞♛♚♜♝♟◆▲")
LIGHT = set("○□♘♕♔♖♗♙◇△")
CHESS = set("♔♕♖♗♘♙♚♛♜♝♞♟")  # figures most fonts draw small and high in their square: drawn as discs
RELATED = (  # a dark and a light shade of one hue: pieces made per one member of a group
    ("#c62828", "#ef9a9a"), ("#1565c0", "#90caf9"), ("#2e7d32", "#a5d6a7"), ("#6a1b9a", "#ce93d8"),
    ("#ef6c00", "#ffcc80"), ("#00838f", "#80deea"), ("#ad1457", "#f48fb1"), ("#4e342e", "#bcaaa4"),
)  # fmt: skip
PALETTE = ("#e57373", "#64b5f6", "#81c784", "#ba68c8", "#ffb74d", "#4db6ac", "#f06292", "#a1887f", "#90a4ae")
TILE_COLOURS = (  # twelve that neighbours can tell apart: a colour per pentomino
    "#e57373", "#64b5f6", "#81c784", "#ba68c8", "#ffb74d", "#4db6ac",
    "#f06292", "#a1887f", "#dce775", "#7986cb", "#4dd0e1", "#ff8a65",
)  # fmt: skip

CAPTION_GLYPHS = Glyphs(True, "·", "→", " ", " · ", "✗")  # pieces by their symbols: no font needs a chess set


@dataclass
class Panel:
    """One drawing: its size and its SVG elements, placed at (0, 0)."""

    width: float
    height: float
    parts: list[str] = field(default_factory=list)


def picture_title(puzzle: Puzzle) -> str:
    """`Frog jump n=3`: the title of a picture or a graph (the parameters in use)."""
    return " ".join([puzzle.title, *(f"{k}={show(v)}" for k, v in puzzle.shown_params.items())])  # type: ignore[arg-type]


def solution_svg(compiled: CompiledPuzzle, path: Path, title: str) -> str:
    """The whole picture: the title, then the states of the solution from the start."""
    return picture_of(title, solution_panels(compiled, path))


def picture_of(title: str, panels: list[Panel]) -> str:
    """Drawings under a title, in rows that wrap at ROW_WIDTH: one SVG document."""
    return _document(title, _rows(panels))


def solution_panels(compiled: CompiledPuzzle, path: Path) -> list[Panel]:
    """The drawings of a solution, one per state from the start, each captioned with its
    move; an amida-kuji's solution is its one ladder, a logic puzzle's its board (with the
    givens first: the order of filling means nothing)."""
    puzzle = compiled.puzzle
    if puzzle.board is not None and puzzle.show == SHOW_LADDER:
        ladder = ladder_panel(compiled, path)
        if ladder is not None:
            return [ladder]
    if compiled.filling is not None:
        final = path[-1][1] if path else compiled.start
        given = any(compiled.start[: compiled.cells])
        shown = [(compiled.start, "start"), (final, "solution")] if given else [(final, "solution")]
        return [state_panel(compiled, state, None, caption) for state, caption in shown]
    panels = [state_panel(compiled, compiled.start, None, "start")]
    before = compiled.start
    for number, (move, after) in enumerate(path, 1):
        label = compiled.label(move, before, after)
        said = describe(label, compiled, short=True, drawn=CAPTION_GLYPHS).plain
        caption = f"{number}. {said or label.rule}"  # a permutation of cells moves no one piece: its name
        panels.append(state_panel(compiled, after, label, caption))
        before = after
    return panels


FRAME_SECONDS = 1.0  # how long an animated picture shows each state


def animated_svg(compiled: CompiledPuzzle, path: Path, title: str, seconds: float = FRAME_SECONDS) -> str:
    """The solution as one animated picture: its drawings (`solution_panels`) shown one at a
    time in one place, `seconds` each, over and over, by CSS animation alone (no script, no
    file beside it: a page or a chat shows it as an image). Each frame covers the ones under
    it, so a viewer that does not animate shows the last one, the goal."""
    return animated_of(title, solution_panels(compiled, path), seconds)


def animated_of(title: str, panels: list[Panel], seconds: float = FRAME_SECONDS) -> str:
    """Drawings shown one at a time under a title (see `animated_svg`)."""
    count = len(panels)
    width = max(max(p.width for p in panels), 11.5 * len(title)) + 2 * GAP
    height = max(p.height for p in panels) + 2 * GAP + 16
    cycle = count * seconds
    share = 100 / count
    style = (
        f"@keyframes frame {{ 0% {{ opacity: 1 }} {share:.4f}% {{ opacity: 0 }} 100% {{ opacity: 0 }} }}"
        f" .frame {{ animation: frame {cycle:g}s step-end infinite; }}"
    )
    frames = []
    for i, panel in enumerate(panels):
        delay = -(count - i) * seconds if i else 0.0  # frame i shows from i * seconds into each cycle
        frames.append(
            f'<g class="frame" style="animation-delay: {delay:g}s">'
            f'<rect width="{width:g}" height="{height:g}" fill="white"/>'
            f"{_text(GAP, GAP, title, size=18, weight='bold')}"
            f'<g transform="translate({GAP},{GAP + 16})">{"".join(panel.parts)}</g></g>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family={quoteattr(FONT)}>'
        f"<style>{style}</style>{''.join(frames)}</svg>\n"
    )


def standalone(panel: Panel) -> str:
    """One drawing as an SVG element of its own (a step of the HTML page)."""
    width, height = panel.width + 2 * 8, panel.height + 2 * 8
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family={quoteattr(FONT)}>'
        f'<g transform="translate(8,8)">{"".join(panel.parts)}</g></svg>'
    )


def boards_svg(compiled: CompiledPuzzle, solutions: list[Path], title: str) -> str:
    """The solutions of a `search all` spec: each one's final board, numbered."""
    return picture_of(title, boards_panels(compiled, solutions))


def boards_panels(compiled: CompiledPuzzle, solutions: list[Path]) -> list[Panel]:
    return [
        state_panel(compiled, path[-1][1] if path else compiled.start, None, f"{number}")
        for number, path in enumerate(solutions, 1)
    ]


def _rows(panels: list[Panel]) -> list[list[Panel]]:
    rows: list[list[Panel]] = [[]]
    used = 0.0
    for panel in panels:
        if rows[-1] and used + GAP + panel.width > ROW_WIDTH:
            rows.append([])
            used = 0.0
        used += (GAP if rows[-1] else 0) + panel.width
        rows[-1].append(panel)
    return rows


def _document(title: str, rows: list[list[Panel]]) -> str:
    drawn = max(sum(p.width for p in row) + GAP * (len(row) - 1) for row in rows)
    width = max(drawn, 11.5 * len(title)) + 2 * GAP  # bold 18 px: about 11 px a character
    body: list[str] = [_text(GAP, GAP, title, size=18, weight="bold")]
    y = GAP + 16.0
    for row in rows:
        x = float(GAP)
        for panel in row:
            body.append(f'<g transform="translate({x:g},{y:g})">{"".join(panel.parts)}</g>')
            x += panel.width + GAP
        y += max(p.height for p in row) + GAP
    height = y
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family={quoteattr(FONT)}>'
        f'<rect width="100%" height="100%" fill="white"/>{"".join(body)}</svg>\n'
    )


def state_panel(compiled: CompiledPuzzle, state: bytes, label: MoveLabel | None, caption: str) -> Panel:
    """A caption over the board (if any), the places beside it and the counters under it."""
    puzzle = compiled.puzzle
    parts: list[str] = []
    x = 0.0
    height = 0.0
    if puzzle.board is not None:
        board = board_panel(compiled, state, label)
        parts.append(f'<g transform="translate(0,{CAPTION + 6})">{"".join(board.parts)}</g>')
        x, height = board.width + (GAP if puzzle.places else 0), board.height
    if puzzle.places:
        places = places_panel(compiled, state, label)
        parts.append(f'<g transform="translate({x:g},{CAPTION + 6})">{"".join(places.parts)}</g>')
        x, height = x + places.width, max(height, places.height)
    gauges = gauges_panel(compiled, state, label)
    if gauges is not None and not x:  # gauges alone (water jugs): on a card of their own, each state apart
        card = max(gauges.width, 7.2 * len(caption)) + 2 * CARD
        parts.append(
            f'<rect x="0" y="{CAPTION + 2}" width="{card:g}" height="{gauges.height + 2 * CARD:g}" rx="8" '
            f'fill="#f7f9fb" stroke="#cfd8dc"/>'
        )
        parts.append(f'<g transform="translate({CARD},{CAPTION + 2 + CARD})">{"".join(gauges.parts)}</g>')
        x, height = card, gauges.height + 2 * CARD
    elif gauges is not None:
        parts.append(f'<g transform="translate({x + (GAP if x else 0):g},{CAPTION + 6})">{"".join(gauges.parts)}</g>')
        x, height = x + (GAP if x else 0) + gauges.width, max(height, gauges.height)
    counters = _counter_lines(compiled, state)
    for i, line in enumerate(counters):
        parts.append(_text(0, CAPTION + 6 + height + 18 * (i + 1), line, size=13))
    height += 18 * len(counters)
    width = max(x, 7.2 * len(caption), CELL)
    parts.insert(0, _text(0, CAPTION - 4, caption, size=13, weight="bold"))
    return Panel(width, height + CAPTION + 10, parts)


def board_panel(compiled: CompiledPuzzle, state: bytes, label: MoveLabel | None) -> Panel:
    """The board's cells where they lie: a grid or a line as squares (a square without a cell
    left out), a ring or a graph as circles round a circle; each cell's shape named by a
    `data-cell` attribute."""
    board = compiled.puzzle.board
    assert board is not None
    reached = {c for c in label.cells if state[c] != 0} if label is not None else set()
    left = {c for c in label.cells if state[c] == 0} if label is not None else set()
    lamps = _of_toggles(compiled.puzzle)
    pressed: int | None = None
    if lamps:
        reached, left = set(), set()  # a press turns lights both ways: the pressed cell is marked instead
        names = {board.name(c): c for c in range(board.size)}
        pressed = names.get(label.at) if label is not None and label.at is not None else None
    centres: dict[int, tuple[float, float]] = {}
    parts: list[str] = []
    if board.kind in (RING, GRAPH):
        radius = max(1.5 * CELL, board.size * CELL * 1.15 / (2 * math.pi))
        for cell in range(board.size):
            angle = 2 * math.pi * cell / board.size - math.pi / 2
            centres[cell] = (radius + CELL / 2 + radius * math.cos(angle), radius + CELL / 2 + radius * math.sin(angle))
        width = height = 2 * radius + CELL
        for a, b in sorted(_links(board)):
            (x1, y1), (x2, y2) = centres[a], centres[b]
            parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{LINES}" stroke-width="1"/>')
        for cell, (cx, cy) in centres.items():
            fill = MOVED if cell in reached else BOARD
            dash = ' stroke-dasharray="4 3"' if cell in left else ""
            stroke, thick = (MOVED, 5) if cell in reached else (LEFT, 1.5) if cell in left else (LINES, 1.5)
            parts.append(
                f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL / 2 - 2:g}" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="{thick}"{dash}{_named(board, cell)}/>'
            )
    else:
        cols = board.cols if board.has_frame else board.size
        squares = board.frame if board.has_frame else tuple(range(board.size))
        rows = math.ceil(len(squares) / cols)
        shift = _triangle_shift(board)
        triangle = shift(0) > 0
        for i, cell in enumerate(squares):
            if cell < 0:
                continue
            r, c = divmod(i, cols)
            x, y = c * CELL + shift(r), r * CELL
            centres[cell] = (x + CELL / 2, y + CELL / 2)
            fill = MOVED if cell in reached else BOARD
            if triangle:  # a triangle of holes, joined along the lattice's three lines (not bricks)
                dash = ' stroke-dasharray="4 3"' if cell in left else ""
                parts.append(
                    f'<circle cx="{x + CELL / 2:g}" cy="{y + CELL / 2:g}" r="{CELL / 2 - 3:g}" fill="{fill}" '
                    f'stroke="{LEFT if cell in left else LINES}" stroke-width="1.5"{dash}{_named(board, cell)}/>'
                )
                continue
            parts.append(
                f'<rect x="{x:g}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="{LINES}"'
                f"{_named(board, cell)}/>"
            )
            if lamps:
                parts.append(_lamp(x, y, bool(state[cell]), cell == pressed))
            if cell in left:
                parts.append(
                    f'<rect x="{x + 3:g}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="none" '
                    f'stroke="{LEFT}" stroke-width="1.5" stroke-dasharray="4 3"/>'
                )
        if triangle:
            lattice = []
            for a, b in sorted(_links(board)):
                (x1, y1), (x2, y2) = centres[a], centres[b]
                if abs(y1 - y2) <= CELL and abs(x1 - x2) <= CELL:  # neighbours: a jump's line is two of these
                    lattice.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{LINES}"/>')
            parts[:0] = lattice
        parts.extend(_walls(board, cols, rows))
        width, height = cols * CELL, rows * CELL
        if board.box is not None and all(cell >= 0 for cell in squares):
            parts.extend(_box_lines(board.box, rows, cols))
        if rows == 1:  # a line: its cells' names under it
            for cell, (cx, _) in centres.items():
                parts.append(_text(cx, CELL + 14, board.name(cell), size=11, anchor="middle", fill="#777"))
            height += 16
    if compiled.tiling is not None and board.has_frame:
        parts.extend(_tiles(compiled, state))
    elif board.regions:
        region = {cell: i for i, (_, cells) in enumerate(board.regions) for cell in cells}
        parts.extend(_outlines(board, region.__getitem__))
    filling = compiled.filling is not None
    if compiled.puzzle.has_blocks and compiled.tiling is None:
        parts.extend(_blocks(compiled, state, centres))
    for cell, (cx, cy) in centres.items():
        if state[cell] and filling and _is_written(compiled, state[cell]):
            given = compiled.start[cell] != 0 or compiled.tiling is not None  # a tiling's letters name its pieces
            parts.append(_written(compiled, state[cell], cx, cy, given=given))
        elif state[cell] and state[cell] not in lamps and (filling or compiled.puzzle.piece(state[cell]).shape is None):
            parts.extend(_piece(compiled, state[cell], cx, cy))  # a filling's figure (a queen) too: a disc
    parts.extend(_goal_marks(compiled, centres))  # over the pieces: a car on a target does not hide it
    leaving = _exits(compiled, centres)
    if leaving:
        parts.extend(leaving)
        width, height = width + EXIT, height + EXIT
    return Panel(width, height, parts)


def _named(board: Board, cell: int) -> str:
    """The cell's name on the shape drawn for it (`data-cell`): where a page finds the cell a
    click lands on, and marks one, from the drawing itself (serve/static/app.js)."""
    return f" data-cell={quoteattr(board.name(cell))}"


LIT, LIT_EDGE, UNLIT, PRESSED = "#ffd54f", "#f9a825", "#455a64", "#d32f2f"


def _of_toggles(puzzle: Puzzle) -> set[int]:
    """The pieces of a puzzle whose every move toggles a piece and an empty cell (Lights
    Out), drawn as lights: lit where the piece is, dark where it is not; none where a move
    does anything else (a piece that moves is a disc on its cell)."""
    if not puzzle.moves or puzzle.board is None or not puzzle.board.has_frame:
        return set()
    if not all(m.actions and all(isinstance(a, Toggle) for a in m.actions) for m in puzzle.moves):
        return set()
    pairs = {(a.first, a.second) for m in puzzle.moves for a in m.actions if isinstance(a, Toggle)}
    if not all(EMPTY in pair for pair in pairs):
        return set()  # a toggle between two pieces: each drawn as itself
    return {code for pair in pairs for code in pair if code != EMPTY}


def _lamp(x: float, y: float, lit: bool, pressed: bool) -> str:
    """A light in its square: lit (yellow, its rim darker) or not (dark), a press ringed red."""
    fill, edge = (LIT, LIT_EDGE) if lit else (UNLIT, UNLIT)
    out = (
        f'<rect x="{x + 4:g}" y="{y + 4:g}" width="{CELL - 8}" height="{CELL - 8}" rx="6" '
        f'fill="{fill}" stroke="{edge}" stroke-width="2"/>'
    )
    if pressed:
        out += (
            f'<rect x="{x + 1.5:g}" y="{y + 1.5:g}" width="{CELL - 3}" height="{CELL - 3}" rx="7" fill="none" '
            f'stroke="{PRESSED}" stroke-width="3"><title>pressed</title></rect>'
        )
    return out


def _triangle_shift(board: Board) -> Callable[[int], float]:
    """How far each row is moved right: half a cell per row for a triangle of cells (row r
    holding columns 1..r, as a triangular peg board is written on a grid), so that it is
    drawn as a triangle, its diagonals as the lattice's lines; nothing for other boards."""
    if not board.has_frame or board.rows != board.cols or board.rows < 3:
        return lambda row: 0.0
    for i, cell in enumerate(board.frame):
        r, c = divmod(i, board.cols)
        if (cell >= 0) != (c <= r):
            return lambda row: 0.0
    return lambda row: (board.rows - 1 - row) * CELL / 2


def _walls(board: Board, cols: int, rows: int) -> list[str]:
    """A board whose outer ring is all walls (a Sokoban level, written with its walls) has
    them drawn: every square without a cell next to one with a cell, filled dark."""
    if not board.has_frame or rows < 3 or cols < 3:
        return []
    ring = [i for i in range(len(board.frame)) if i // cols in (0, rows - 1) or i % cols in (0, cols - 1)]
    if any(board.frame[i] >= 0 for i in ring):
        return []
    out = []
    for i, cell in enumerate(board.frame):
        r, c = divmod(i, cols)
        near = [
            board.frame[rr * cols + cc]
            for rr in range(r - 1, r + 2)
            for cc in range(c - 1, c + 2)
            if 0 <= rr < rows and 0 <= cc < cols
        ]
        if cell < 0 and any(n >= 0 for n in near):
            out.append(f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}" fill="{WALL}"/>')
    return out


def _goal_marks(compiled: CompiledPuzzle, centres: dict[int, tuple[float, float]]) -> list[str]:
    """Where the goal wants a piece, when it leaves other cells open (`?`,
    `targets.targets`): a dashed ring in the piece's colour over whatever stands there
    (Sokoban's targets, the cells Rush Hour's car must reach)."""
    colours = piece_colours(compiled)
    out = []
    for cell, code in targets(compiled.puzzle).items():
        if cell not in centres:
            continue
        cx, cy = centres[cell]
        fill, _ = colours[compiled.puzzle.parts[code].piece - 1]
        ring = fill if fill != LIGHT_FILL else DARK_FILL  # a light piece's ring drawn dark, to be seen
        out.append(
            f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.44:g}" fill="none" stroke="{ring}" '
            f'stroke-width="2.5" stroke-dasharray="5 3"/>'
        )
    return out


def _exits(compiled: CompiledPuzzle, centres: dict[int, tuple[float, float]]) -> list[str]:
    """Where a block leaves the board (`targets.exits`): an arrow in its colour past the
    board's edge, beside the cell it leaves from."""
    colours = piece_colours(compiled)
    goal = targets(compiled.puzzle)
    out = []
    for cell, side in exits(compiled.puzzle):
        if cell not in centres:
            continue
        cx, cy = centres[cell]
        fill = colours[compiled.puzzle.parts[goal[cell]].piece - 1][0]
        fill = fill if fill != LIGHT_FILL else DARK_FILL
        dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[side]
        tip_x, tip_y = cx + dx * (CELL / 2 + EXIT - 2), cy + dy * (CELL / 2 + EXIT - 2)
        base_x, base_y = cx + dx * (CELL / 2 + 2), cy + dy * (CELL / 2 + 2)
        half = CELL / 3
        corners = [(tip_x, tip_y), (base_x + dy * half, base_y + dx * half), (base_x - dy * half, base_y - dx * half)]
        points = " ".join(f"{x:g},{y:g}" for x, y in corners)
        out.append(f'<polygon points="{points}" fill="{fill}"><title>exit</title></polygon>')
    return out


def _blocks(compiled: CompiledPuzzle, state: bytes, centres: dict[int, tuple[float, float]]) -> list[str]:
    """Blocks (`block 2 x 1`) as one shape each, in their piece's colour, their symbol at
    their middle: the cells of one block joined, two blocks side by side kept apart."""
    puzzle = compiled.puzzle
    board = puzzle.board
    assert board is not None
    colours = piece_colours(compiled)
    blocks: dict[tuple[int, int, int], list[int]] = {}  # (piece, anchor row, anchor col) -> cells
    for cell, code in enumerate(state[: compiled.cells]):
        piece = puzzle.piece(code) if code else None
        row, col = board.cells[cell].row, board.cells[cell].col
        if piece is None or piece.shape is None or row is None or col is None:
            continue
        dr, dc = piece.shape[puzzle.parts[code].offset]
        blocks.setdefault((puzzle.parts[code].piece, row - dr, col - dc), []).append(cell)
    out = []
    inset = 4
    for (number, _, _), cells in blocks.items():
        fill, ink = colours[number - 1]
        members = set(cells)
        for cell in cells:
            cx, cy = centres[cell]
            row, col = board.cells[cell].row, board.cells[cell].col
            assert row is not None and col is not None
            joined = {
                side: board.at(row + dr, col + dc) in members
                for side, (dr, dc) in {"left": (0, -1), "right": (0, 1), "up": (-1, 0), "down": (1, 0)}.items()
            }
            x1 = cx - CELL / 2 + (0 if joined["left"] else inset)
            x2 = cx + CELL / 2 - (0 if joined["right"] else inset)
            y1 = cy - CELL / 2 + (0 if joined["up"] else inset)
            y2 = cy + CELL / 2 - (0 if joined["down"] else inset)
            out.append(f'<rect x="{x1:g}" y="{y1:g}" width="{x2 - x1:g}" height="{y2 - y1:g}" fill="{fill}"/>')
        mx = sum(centres[c][0] for c in cells) / len(cells)
        my = sum(centres[c][1] for c in cells) / len(cells)
        symbol = puzzle.pieces[number - 1].symbol
        out.append(_text(mx, my + 5, symbol, size=15, anchor="middle", fill=ink, weight="bold"))
    return out


def _tiles(compiled: CompiledPuzzle, state: bytes) -> list[str]:
    """A tiling's pieces: each piece's cells in a colour of its own, with a thick line round
    each piece."""
    board = compiled.puzzle.board
    assert board is not None
    parts: list[str] = []
    for cell in range(board.size):
        row, col = board.cells[cell].row, board.cells[cell].col
        assert row is not None and col is not None
        if state[cell]:
            colour = TILE_COLOURS[(state[cell] - 1) % len(TILE_COLOURS)]
            x, y = (col - 1) * CELL, (row - 1) * CELL
            parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{colour}" fill-opacity="0.55"/>')
    return parts + _outlines(board, lambda cell: state[cell])


def _outlines(board: Board, group: Callable[[int], object]) -> list[str]:
    """Thick lines round groups of cells (a tiling's pieces, the regions of `regions:`):
    where a cell meets a cell of another group, a hole or the board's edge."""
    edges: list[str] = []
    for cell in range(board.size):
        row, col = board.cells[cell].row, board.cells[cell].col
        assert row is not None and col is not None
        x, y = (col - 1) * CELL, (row - 1) * CELL
        right, below = x + CELL, y + CELL
        for dr, dc, x1, y1, x2, y2 in ((-1, 0, x, y, right, y), (0, -1, x, y, x, below)):
            other = board.at(row + dr, col + dc)
            if other is None or group(other) != group(cell):
                edges.append(_edge(x1, y1, x2, y2))
        for dr, dc, x1, y1, x2, y2 in ((1, 0, x, below, right, below), (0, 1, right, y, right, below)):
            if board.at(row + dr, col + dc) is None:
                edges.append(_edge(x1, y1, x2, y2))
    return edges


def _edge(x1: float, y1: float, x2: float, y2: float) -> str:
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#263238" stroke-width="2.5"/>'


def _box_lines(box: tuple[int, int], rows: int, cols: int) -> list[str]:
    """The boxes of a grid (`boxes R x C`) drawn as thick lines, as a Sudoku is printed."""
    height, width = box
    lines = [
        f'<line x1="{c * CELL}" y1="0" x2="{c * CELL}" y2="{rows * CELL}" stroke="#263238" stroke-width="2.5"/>'
        for c in range(0, cols + 1, width)
    ]
    lines += [
        f'<line x1="0" y1="{r * CELL}" x2="{cols * CELL}" y2="{r * CELL}" stroke="#263238" stroke-width="2.5"/>'
        for r in range(0, rows + 1, height)
    ]
    return lines


def _is_written(compiled: CompiledPuzzle, code: int) -> bool:
    """Whether a filling's piece is written (a number, a letter, a mark: as a puzzle page
    prints it) rather than drawn as a disc (a chess figure such as ♛, which fonts draw small
    and high in its square)."""
    piece = compiled.puzzle.piece(code)
    name = str(piece.value) if piece.value is not None else piece.glyph or piece.symbol
    return compiled.tiling is not None or not any(ch in CHESS for ch in name)


def _written(compiled: CompiledPuzzle, code: int, cx: float, cy: float, given: bool) -> str:
    """A filling's piece as a puzzle page prints it: its number or symbol, the givens in black
    and bold, what the solution fills in blue."""
    piece = compiled.puzzle.piece(code)
    name = str(piece.value) if piece.value is not None else piece.glyph or piece.symbol
    size = 22 if len(name) <= 2 else 14
    weight, ink = ("bold", "#1a1a1a") if given else ("normal", "#1565c0")
    return _text(cx, cy + size * 0.36, name, size=size, anchor="middle", fill=ink, weight=weight)


def _links(board: Board) -> set[tuple[int, int]]:
    """The pairs of cells one step apart in some direction: the lines of a ring or a graph."""
    directions = [d for group in board.directions.values() for d in group] + list(board.default)
    return {(min(a, b), max(a, b)) for d in directions for a, targets in enumerate(d.steps) for b in targets if a != b}


def places_panel(compiled: CompiledPuzzle, state: bytes, label: MoveLabel | None) -> Panel:
    """Each place as a box with its name over it and its pieces in a column (a stack bottom
    last, as a pile stands), the carrier a box where it is; the pieces that just arrived
    shaded. A stack of numbered pieces is a peg with its discs by size (Hanoi). A supply the
    pieces are only taken from, beside a board (the hand of numbers to place), is left out:
    it is how the spec deals the pieces, not part of the puzzle's picture."""
    puzzle = compiled.puzzle
    decoded = compiled.decode(state)
    carrier = puzzle.counter_index(CARRIER)
    carrier_at = decoded.counters[carrier] if carrier is not None else None
    arrived = {(symbol, dst) for symbol, _, dst in label.movers} if label is not None else set()
    hidden = supplies(compiled)
    parts: list[str] = []
    boxes: list[float] = []  # where each place's box is, where a carrier crosses between them
    x = 0.0
    height = 0.0
    for p, (place, contents) in enumerate(zip(puzzle.places, decoded.places, strict=True)):
        if p in hidden:
            continue
        if place.stack and all(piece.value is not None for piece in puzzle.pieces):
            peg = _peg(compiled, place.name, contents, arrived)
            parts.append(f'<g transform="translate({x:g},0)">{"".join(peg.parts)}</g>')
            height = max(height, peg.height)
            x += peg.width + GAP / 2
            continue
        codes = (
            list(reversed(contents))
            if place.stack
            else [i + 1 for i, n in enumerate(contents) for _ in range(n)]  # counts by piece
        )
        box_height = max(1, len(codes)) * (CELL - 4) + 8
        parts.append(_text(x + CELL / 2 + 4, 12, place.name, size=12, anchor="middle", fill="#555"))
        parts.append(
            f'<rect x="{x:g}" y="{BOX_TOP}" width="{CELL + 8}" height="{box_height}" rx="6" '
            f'fill="{BOARD}" stroke="{LINES}"/>'
        )
        for i, code in enumerate(codes):
            cy = BOX_TOP + 4 + (CELL - 4) * i + (CELL - 4) / 2
            if (puzzle.piece(code).symbol, place.name) in arrived:
                parts.append(
                    f'<rect x="{x + 3:g}" y="{cy - (CELL - 4) / 2:g}" width="{CELL + 2}" height="{CELL - 4}" '
                    f'rx="4" fill="{MOVED}"/>'
                )
            parts.extend(_piece(compiled, code, x + CELL / 2 + 4, cy, on_cell=False))
        if carrier is None:
            height = max(height, BOX_TOP + box_height + 22)
            x += CELL + 8 + GAP / 2
            continue
        boxes.append(x)
        height = max(height, BOX_TOP + box_height + 8)
        x += CELL + 8 + RIVER
    if carrier is None or not boxes:
        return Panel(max(0.0, x - GAP / 2), height, parts)
    return _with_river(puzzle.counters[carrier].name, boxes, carrier_at, parts, height)


def _with_river(name: str, boxes: list[float], at: int | None, parts: list[str], height: float) -> Panel:
    """Places a carrier crosses between (the banks of a river): water between each two of
    them, and the carrier a boat, with its name, on the water beside the place where it is
    (the first place's right, any other's left)."""
    water = []
    for left in boxes[:-1]:
        water.append(
            f'<rect x="{left + CELL + 8 + 4:g}" y="{BOX_TOP - 4}" width="{RIVER - 8}" '
            f'height="{height - BOX_TOP + 4:g}" rx="4" fill="#b3e5fc"/>'
        )
    if at is not None and at < len(boxes):
        hull = (RIVER - 8) / 2  # half the water's width: it lies against the bank it is at
        side = boxes[at] + CELL + 8 + 5 if at == 0 else boxes[at] - 5 - hull
        top = BOX_TOP + 8
        water.append(
            f'<path d="M{side:g},{top:g} h{hull:g} l-4,12 h{-(hull - 8):g} z" fill="#8d6e63" stroke="#5d4037">'
            f"<title>{escape(name)}</title></path>"
        )
        water.append(_text(side + hull / 2, top + 28, name, size=11, anchor="middle", fill="#01579b"))
    return Panel(boxes[-1] + CELL + 8, height, water + parts)


def supplies(compiled: CompiledPuzzle) -> set[int]:
    """The places pieces are only taken from, never put into, on a puzzle with a board: the
    pool a placement puzzle deals from (drawn pieces: the board says where they went)."""
    puzzle = compiled.puzzle
    if puzzle.board is None or any(isinstance(move.form, Carry) for move in puzzle.moves):
        return set()
    targets: set[int] = set()
    for move in puzzle.moves:
        for action in move.actions:
            if isinstance(action, Put):
                if isinstance(action.target, VarLoc) and action.target.over == "place":
                    return set()
                if isinstance(action.target, PlaceLoc):
                    targets.add(action.target.place)
    return set(range(len(puzzle.places))) - targets


def _peg(compiled: CompiledPuzzle, name: str, contents: tuple[int, ...], arrived: set[tuple[str, str | None]]) -> Panel:
    """A stack of numbered pieces as a peg: a rod on a base, the discs on it bottom first,
    each as wide as its number is large."""
    puzzle = compiled.puzzle
    largest = max((piece.value or 1) for piece in puzzle.pieces)
    slots = max(len(puzzle.pieces), 1)
    disc, widest = 16, 2.2 * CELL
    width = widest + 12
    rod_top, base = BOX_TOP + 6, BOX_TOP + 10 + slots * disc
    centre = width / 2
    parts = [
        _text(centre, 12, name, size=12, anchor="middle", fill="#555"),
        f'<rect x="{centre - 3:g}" y="{rod_top}" width="6" height="{base - rod_top}" rx="2" fill="{LINES}"/>',
        f'<rect x="0" y="{base}" width="{width:g}" height="6" rx="2" fill="{LINES}"/>',
    ]
    for level, code in enumerate(contents):
        piece = puzzle.piece(code)
        value = piece.value or 1
        across = CELL * 0.5 + (widest - CELL * 0.5) * value / largest
        top = base - (level + 1) * disc
        fill, ink = piece_colours(compiled)[puzzle.parts[code].piece - 1]
        stroke = MOVED if (piece.symbol, name) in arrived else "#263238"
        thick = 3 if stroke == MOVED else 1.2
        parts.append(
            f'<rect x="{centre - across / 2:g}" y="{top + 1:g}" width="{across:g}" height="{disc - 2}" rx="5" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{thick}"/>'
        )
        parts.append(_text(centre, top + disc - 4, str(value), size=11, anchor="middle", fill=ink, weight="bold"))
    return Panel(width, base + 12, parts)


def ladder_panel(compiled: CompiledPuzzle, path: Path) -> Panel | None:
    """The amida-kuji ladder: the verticals with the start's symbols on top and the goal's at
    the bottom, and the rungs in the rows the text ladder packs them into."""
    gaps = rungs(compiled, path)
    if gaps is None:
        return None
    puzzle = compiled.puzzle
    verticals = compiled.cells
    rows = pack(gaps)
    final = path[-1][1] if path else compiled.start
    step, top = CELL, 24
    bottom = top + (len(rows) + 1) * step * 0.6
    parts = []
    for v in range(verticals):
        x = v * step + step / 2
        parts.append(f'<line x1="{x:g}" y1="{top:g}" x2="{x:g}" y2="{bottom:g}" stroke="#333" stroke-width="2"/>')
        parts.append(_text(x, top - 8, puzzle.symbol(compiled.start[v]), size=14, anchor="middle", weight="bold"))
        parts.append(_text(x, bottom + 20, puzzle.symbol(final[v]), size=14, anchor="middle", weight="bold"))
    for r, row in enumerate(rows, 1):
        y = top + r * step * 0.6
        for gap in row:
            x1, x2 = gap * step + step / 2, (gap + 1) * step + step / 2
            parts.append(f'<line x1="{x1:g}" y1="{y:g}" x2="{x2:g}" y2="{y:g}" stroke="#c62828" stroke-width="3"/>')
    return Panel(verticals * step, bottom + 28, parts)


@lru_cache(maxsize=16)
def piece_colours(compiled: CompiledPuzzle) -> tuple[tuple[str, str], ...]:
    """Each piece's fill and ink, by piece (not by cell code: a block's cells are one colour):
    dark for pieces drawn ● and light for ○; pieces of several kinds made `per` a group (a
    husband and a wife per couple) in one hue per member, a shade per kind; a colour each
    otherwise."""
    pieces = compiled.puzzle.pieces
    kinds = sorted({p.kind for p in pieces}, key=[p.kind for p in pieces].index)
    group = _shared_group(pieces)
    members = sorted({p.attribute(group) for p in pieces}, key=str) if group is not None else []
    out = []
    for index, piece in enumerate(pieces):
        drawn = piece.glyph or piece.symbol
        if drawn in DARK:
            out.append((DARK_FILL, LIGHT_FILL))
        elif drawn in LIGHT:
            out.append((LIGHT_FILL, DARK_FILL))
        elif group is not None:
            hue = RELATED[members.index(piece.attribute(group)) % len(RELATED)]
            shade = hue[kinds.index(piece.kind) % 2]
            out.append((shade, "white" if shade == hue[0] else "#1a1a1a"))
        else:
            palette = PALETTE if len(pieces) <= len(PALETTE) else TILE_COLOURS
            out.append((palette[index % len(palette)], "#1a1a1a"))
    return tuple(out)


def _shared_group(pieces: tuple[PieceType, ...]) -> str | None:
    """The group that pieces of two or more kinds are made per (`piece H husband per couple`,
    `piece W wife per couple`): an attribute every piece has, whose every value is shared by
    pieces of different kinds. None where there is none, or more members than hues."""
    if len({p.kind for p in pieces}) < 2 or not pieces:
        return None
    for name, _ in pieces[0].attributes:
        values: dict[object, set[str]] = {}
        for piece in pieces:
            value = piece.attribute(name)
            if value is None:
                break
            values.setdefault(value, set()).add(piece.kind)
        else:
            if all(len(kinds) > 1 for kinds in values.values()) and len(values) <= len(RELATED):
                return name
    return None


def _piece(compiled: CompiledPuzzle, code: int, cx: float, cy: float, on_cell: bool = True) -> list[str]:
    """A piece as a disc with its name: as the captions write it (a cell's piece by its glyph
    where that is plain text, `@`; a place's by its symbol, `H1`), a number by its value."""
    puzzle = compiled.puzzle
    piece = puzzle.piece(code)
    fill, ink = piece_colours(compiled)[puzzle.parts[code].piece - 1]
    if piece.value is not None:
        name = str(piece.value)
    else:
        name = CAPTION_GLYPHS.piece(piece.symbol, piece.glyph) if on_cell else piece.symbol
    size = 15 if len(name) <= 2 else 11
    return [
        f'<circle cx="{cx:g}" cy="{cy:g}" r="{CELL * 0.38:g}" fill="{fill}" stroke="#263238" stroke-width="1.5"/>',
        _text(cx, cy + size * 0.36, name, size=size, anchor="middle", fill=ink, weight="bold"),
    ]


def _gauged(compiled: CompiledPuzzle) -> list[int]:
    """The counters drawn as gauges: plain numbers with a range (a jug's litres), up to a few
    hundred: a level in a vessel says more than a number."""
    return [
        i
        for i, counter in enumerate(compiled.puzzle.counters)
        if counter.role == NUMBER and 0 <= counter.low < counter.high <= 999
    ]


def gauges_panel(compiled: CompiledPuzzle, state: bytes, label: MoveLabel | None) -> Panel | None:
    """Each gauged counter as a vessel as tall as its range, filled to its value, its name and
    value under it; one that the move changed is outlined."""
    gauged = _gauged(compiled)
    if not gauged:
        return None
    puzzle = compiled.puzzle
    decoded = compiled.decode(state)
    changed = {name for name, _, _ in label.changes} if label is not None else set()
    tallest = max(puzzle.counters[i].high for i in gauged)
    scale = min(14.0, 140.0 / tallest)
    parts: list[str] = []
    x = 0.0
    bottom = BOX_TOP + tallest * scale
    for index in gauged:
        counter = puzzle.counters[index]
        value = decoded.counters[index]
        tall, level = counter.high * scale, value * scale
        stroke, thick = (MOVED, 3) if counter.name in changed else ("#455a64", 1.5)
        parts.append(
            f'<rect x="{x:g}" y="{bottom - level:g}" width="{CELL}" height="{level:g}" fill="#64b5f6" rx="2"/>'
        )
        parts.append(
            f'<rect x="{x:g}" y="{bottom - tall:g}" width="{CELL}" height="{tall:g}" fill="none" '
            f'stroke="{stroke}" stroke-width="{thick}" rx="3"/>'
        )
        parts.append(_text(x + CELL / 2, bottom + 16, f"{counter.name} = {value}", size=12, anchor="middle"))
        parts.append(_text(x + CELL / 2, bottom + 30, f"of {counter.high}", size=10, anchor="middle", fill="#777"))
        x += CELL + GAP
    return Panel(x - GAP, bottom + 34, parts)


def _counter_lines(compiled: CompiledPuzzle, state: bytes) -> list[str]:
    """The counters not drawn otherwise, as `name = value` lines: not the carrier (drawn
    where it is), the progress count, a cursor (how the spec walks the board) or a gauge."""
    puzzle = compiled.puzzle
    decoded = compiled.decode(state)
    gauged = set(_gauged(compiled))
    return [
        f"{counter.name} = {compiled.counter_text(counter.role, value)}"
        for i, (counter, value) in enumerate(zip(puzzle.counters, decoded.counters, strict=True))
        if counter.role not in (CARRIER, PROGRESS, CURSOR) and i not in gauged
    ]


def _text(
    x: float, y: float, text: str, size: int = 12, anchor: str = "start", fill: str = "#1a1a1a", weight: str = "normal"
) -> str:
    """A line of text; its control characters written out, as XML cannot hold them."""
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
        f'font-weight="{weight}">{escape(visible(text))}</text>'
    )
