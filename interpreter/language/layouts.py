"""Elaboration of the start and the goal: cell layouts (a row of items, a picture, a layout
computed from parameters), the contents of places and stacks, and blocks read off the start.

Cells are first read as piece codes; a block's cells are then split into its parts (the
anchor keeps the piece's code, every other cell gets the code of its part), so that two
blocks of one kind side by side stay two blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import Pos, suggest
from ..model.board import Board, Vector
from ..model.puzzle import ANY, EMPTY, AnyCell, Bind, CellPattern, Lit, Part, PieceType, Place, PlaceGoal
from . import syntax as s
from .expressions import type_name
from .pieces import MAX_CODES, PieceSet, not_a_piece, one_cell_a_word
from .topology import MAX_CELLS

if TYPE_CHECKING:
    from .context import Elaboration

MAX_IN_PLACE = 255  # pieces of one kind in one place (a bag counts in one byte)


# ---- reading layout items


def expand(
    el: Elaboration, items: tuple[s.LayoutItem, ...], by_symbol: dict[str, PieceType], allow: str
) -> list[CellPattern | None]:
    """Layout items -> cell patterns (None: a square with no cell, pictures only). `allow`
    says what may appear: "start" (pieces and empties), "goal" (also ?), "rule" (also ?x)."""
    out: list[CellPattern | None] = []
    quiet = False  # after a misspelt word of the language, the rest of the line is its clause
    for item in items:
        if isinstance(item, s.Cells) and item.text not in el.param_pos and _would_split(item.text, by_symbol):
            el.errors.error(
                item.pos.moved(0, len(item.text)),
                not_a_piece(item.text, by_symbol),
                "a declared piece or _ for empty, the cells apart",
            )
            out.append(Lit(EMPTY))  # keeps the count right, so the size check stays quiet
        elif isinstance(item, s.Cells) and item.text not in el.param_pos and _unknown(item.text, by_symbol):
            if not quiet:
                quiet = _unknown_word(el, item, by_symbol)
            out.extend([Lit(EMPTY)] * len(item.text))  # keeps the count right, so the size check stays quiet
        elif isinstance(item, s.Cells):
            if item.text in el.param_pos:
                param = el.env[item.text]
                if not isinstance(param, str):
                    el.errors.error(
                        item.pos, f"'{item.text}' is a {type_name(param)} parameter, not a row of cells", "cells"
                    )
                    continue
                out.extend(symbols(el, param, item.pos, by_symbol, from_param=item.text))
            elif len(item.text) > 1 and item.text in by_symbol:  # a piece's whole symbol: 10, H1
                out.append(Lit(by_symbol[item.text].code))
            else:
                out.extend(symbols(el, item.text, item.pos, by_symbol))
        elif isinstance(item, s.Wild):
            if allow == "start":
                el.errors.error(
                    item.pos, "the start must say what is in every cell; ? is for goals and moves", "a piece or _"
                )
            out.append(AnyCell())
        elif isinstance(item, s.NoCells):
            out.extend([None] * item.squares)
        elif isinstance(item, s.Var):
            if allow != "rule":
                el.errors.error(item.pos, f"variable ?{item.name} can only be used in a move", "a piece or _")
            out.append(Bind(item.name))
        elif isinstance(item, s.Group):
            out.extend(expand(el, item.items, by_symbol, allow))
        else:
            count = el.eval_int(item.times, "a repeat count", 0)
            part = expand(el, (item.item,), by_symbol, allow)
            if count is not None and len(part) * count > MAX_CELLS:
                el.errors.error(
                    item.pos,
                    f"this repeats to {len(part) * count:,} cells{el.with_params()}",
                    f"at most {MAX_CELLS:,} cells",
                )
                continue
            out.extend(part * (count or 0))
    return out


def _would_split(text: str, by_symbol: dict[str, PieceType]) -> bool:
    """A word every character of which is a piece, that would be split silently where it
    must not be (a word with a character that is no piece is refused as such)."""
    return one_cell_a_word(text, by_symbol) and not _unknown(text, by_symbol)


def _unknown(text: str, by_symbol: dict[str, PieceType]) -> list[str]:
    """The characters of a written row of cells that are no piece (none for a whole symbol)."""
    if text in by_symbol:
        return []
    return [ch for ch in text if ch not in by_symbol and ch not in "_?"]


def _unknown_word(el: Elaboration, item: s.Cells, by_symbol: dict[str, PieceType]) -> bool:
    """One message for a written row with characters that are no piece: for a word close to
    one of the language's ('alng'), that word; for a single character, that piece. Returns
    whether the row looked like a misspelt word of the language."""
    unknown = _unknown(item.text, by_symbol)
    known = ", ".join(sorted(by_symbol, key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else 0, k)))
    expected = f"a declared piece ({known}) or _ for empty"
    if len(item.text) == 1:
        el.errors.error(item.pos, f"unknown piece '{item.text}'", expected)
        return False
    close = suggest(item.text, el.reserved)
    where = item.pos.moved(0, len(item.text))
    if close:
        el.errors.error(where, f"'{item.text}' is not a row of pieces{close}", expected)
        return True
    letters = sorted(set(unknown), key=item.text.index)
    first = item.pos.moved(item.text.index(letters[0]))
    if len(letters) == 1:
        el.errors.error(first, f"unknown piece '{letters[0]}'", expected)
    else:
        listed = ", ".join(f"'{ch}'" for ch in letters)
        el.errors.error(first, f"unknown pieces {listed} in '{item.text}'", expected)
    return False


def symbols(
    el: Elaboration, text: str, pos: Pos, by_symbol: dict[str, PieceType], from_param: str | None = None
) -> list[CellPattern | None]:
    out: list[CellPattern | None] = []
    for i, ch in enumerate(text):
        if ch == "_":
            out.append(Lit(EMPTY))
        elif ch == "?":
            out.append(AnyCell())
        elif ch in by_symbol:
            out.append(Lit(by_symbol[ch].code))
        else:
            where = pos if from_param else pos.moved(i)
            origin = f" in parameter {from_param}='{text}'" if from_param else ""
            known = ", ".join(sorted(by_symbol, key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else 0, k)))
            el.errors.error(where, f"unknown piece '{ch}'{origin}", f"a declared piece ({known}) or _ for empty")
            out.append(Lit(EMPTY))  # keeps the count right, so the size check stays quiet
    return out


# ---- cell layouts


@dataclass
class CellLayout:
    codes: list[int]  # per cell: a piece code, EMPTY or ANY (blocks not yet split into parts)
    pos: Pos
    rows: list[Pos] | None = None  # a picture: where each of the board's rows is written


def cell_layout(
    el: Elaboration, which: str, board: Board | None, found: PieceSet, picture: list[tuple[str, Pos]] | None
) -> CellLayout | None:
    decls = [x for x in el.statements if isinstance(x, (s.LayoutDecl, s.ComputedLayout)) and x.which == which]
    for extra in decls[1:]:
        el.errors.error(extra.pos, f"the {which} is given twice (first on line {decls[0].pos.line})", "only one")
    by_symbol = found.by_symbol()
    if which == "start" and picture is not None:
        if decls:
            el.errors.error(decls[0].pos, "the board's picture already shows the start", "no start line")
        codes = []
        for ch, pos in picture:
            item = Lit(by_symbol[ch].code) if ch in by_symbol else symbols(el, ch, pos, by_symbol)[0]
            codes.append(item.code if isinstance(item, Lit) else EMPTY)
        return CellLayout(codes, picture[0][1])
    if not decls:
        return None
    decl = decls[0]
    if board is None:
        el.errors.missing(
            "board", decl.pos, f"a {which} layout lists cells, and this puzzle has no board", f"{which} at PLACE: ..."
        )
        return None
    if isinstance(decl, s.ComputedLayout):
        items = _computed(el, decl.value, decl.pos, which, by_symbol, found)
        if items is None:
            return None
    elif decl.picture:
        items = _picture(el, decl, board, by_symbol, which)
        if items is None:
            return None
    else:
        items = expand(el, decl.rows[0].items, by_symbol, which)
        if any(item is None for item in items):
            el.errors.error(decl.pos, ". marks a square with no cell, in pictures only", "_ for an empty cell")
            return None
    if len(items) != board.size:
        el.errors.error(
            decl.pos,
            f"the {which} has {len(items)} cells but the board is {board.describe()}{el.with_params()}",
            f"{board.size} cells",
        )
        return None
    codes = [item.code if isinstance(item, Lit) else ANY for item in items]  # type: ignore[union-attr]
    rows = [row.pos for row in decl.rows] if isinstance(decl, s.LayoutDecl) and decl.picture else None
    return CellLayout(codes, decl.pos, rows)


def _computed(
    el: Elaboration, expr: s.Expr, pos: Pos, which: str, by_symbol: dict[str, PieceType], found: PieceSet
) -> list[CellPattern | None] | None:
    value = el.eval(expr)
    if value is None:
        return None
    if isinstance(value, (range, tuple, str)) and not el.within(expr.pos, value, f"this {which}", MAX_CELLS):
        return None
    if isinstance(value, str):
        return symbols(el, value, expr.pos, by_symbol, from_param=which)
    if isinstance(value, (range, tuple)):
        by_value = {p.value: p.code for p in found.types if p.value is not None}
        by_value.setdefault(0, EMPTY)  # 0: an empty cell, unless a piece has that number
        out: list[CellPattern | None] = []
        for number in value:
            if number not in by_value:
                el.errors.error(
                    expr.pos, f"no piece has the number {number}", "numbers of `pieces 1..n`, or 0 for an empty cell"
                )
                return None
            out.append(Lit(by_value[number]))
        return out
    el.errors.error(expr.pos, f"{which} = ... needs text or a list of numbers, got {type_name(value)}", "text")
    return None


def _picture(
    el: Elaboration, decl: s.LayoutDecl, board: Board, by_symbol: dict[str, PieceType], which: str
) -> list[CellPattern | None] | None:
    rows = [expand(el, row.items, by_symbol, which) for row in decl.rows]
    ok = True
    if not board.has_frame:
        el.errors.error(
            decl.pos, "a graph's layout is a list of its cells in the order they were named", f"{which} ..."
        )
        return None
    if len(rows) != board.rows:
        el.errors.error(
            decl.pos, f"the {which} picture has {len(rows)} rows but the board has {board.rows}", f"{board.rows} rows"
        )
        return None
    out: list[CellPattern | None] = []
    for r, (row, syntax) in enumerate(zip(rows, decl.rows, strict=True)):
        if len(row) != board.cols:
            el.errors.error(
                syntax.pos,
                f"this row has {len(row)} cells but the board has {board.cols} columns",
                f"{board.cols} cells",
            )
            ok = False
            continue
        for c, item in enumerate(row):
            cell = board.at(r + 1, c + 1)
            if item is None and cell is not None:
                el.errors.error(
                    _square_pos(el, syntax.items, by_symbol, c) or syntax.pos,
                    f"r{r + 1}c{c + 1} is a cell of the board, not a square without one",
                    "_ or a piece",
                )
                ok = False
            elif item is not None and cell is None:
                el.errors.error(
                    _square_pos(el, syntax.items, by_symbol, c) or syntax.pos,
                    f"the board has no cell at r{r + 1}c{c + 1}",
                    ". for a square with no cell",
                )
                ok = False
            elif item is not None:
                out.append(item)
    return out if ok else None


def _square_pos(
    el: Elaboration, items: tuple[s.LayoutItem, ...], by_symbol: dict[str, PieceType], index: int
) -> Pos | None:
    """Where a picture's row writes its square `index` (from 0), as `expand` counts them: a
    character of a word of symbols (a piece's whole symbol, `10`, one square), a `?`, a `.`;
    None where the row says it otherwise (a parameter, a repeat): the caller marks the row."""
    for item in items:
        if isinstance(item, s.Cells) and item.text not in el.param_pos:
            whole = len(item.text) > 1 and item.text in by_symbol
            width = 1 if whole else len(item.text)
            if index < width:
                return item.pos.moved(0, len(item.text)) if whole else item.pos.moved(index)
            index -= width
        elif isinstance(item, (s.Wild, s.Var)):
            if index == 0:
                return item.pos
            index -= 1
        elif isinstance(item, s.NoCells):
            if index < item.squares:
                return item.pos.moved(index)
            index -= item.squares
        else:
            return None
    return None


# ---- blocks


def block_parts(
    el: Elaboration, board: Board | None, found: PieceSet, start: CellLayout | None
) -> tuple[list[PieceType], list[Part]]:
    """Give every block its shape (declared, or read off the start) and number the parts;
    parts[code] says which piece (and which of its cells) a cell code stands for."""
    types = list(found.types)
    for code in sorted(found.block_from_start):
        shape = _shape_from_start(el, board, start, code, found)
        if shape is not None:
            p = types[code - 1]
            types[code - 1] = PieceType(p.code, p.symbol, p.kind, p.description, p.glyph, p.attributes, p.value, shape)
    parts = [Part(0, 0)] + [Part(p.code, 0) for p in types]
    for p in types:
        if p.shape is not None:
            parts.extend(Part(p.code, k) for k in range(1, len(p.shape)))
    if len(parts) - 1 > MAX_CODES:
        el.errors.error(
            Pos(1, 1), f"the pieces and the cells of the blocks need {len(parts) - 1} codes; puzint takes {MAX_CODES}"
        )
    return types, parts


def _shape_from_start(
    el: Elaboration, board: Board | None, start: CellLayout | None, code: int, found: PieceSet
) -> tuple[Vector, ...] | None:
    pos = found.positions[code]
    symbol = found.types[code - 1].symbol
    if board is None or not board.has_frame or start is None:
        el.errors.error(pos, f"block {symbol} takes its shape from the start, which has no cells", "block ROWS x COLS")
        return None
    cells = [i for i, c in enumerate(start.codes) if c == code]
    if not cells:
        el.errors.error(
            pos, f"block {symbol} takes its shape from the start, where it is not", f"{symbol} in the start"
        )
        return None
    spots = {(board.cells[i].row, board.cells[i].col) for i in cells}
    first = min(spots)
    seen = {first}
    todo = [first]
    while todo:
        r, c = todo.pop()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (r + dr, c + dc) in spots and (r + dr, c + dc) not in seen:  # type: ignore[operator]
                seen.add((r + dr, c + dc))  # type: ignore[operator]
                todo.append((r + dr, c + dc))  # type: ignore[operator]
    if len(seen) != len(spots):
        el.errors.error(
            start.pos,
            f"the cells of block {symbol} in the start do not touch: one block is one piece",
            "touching cells",
        )
        return None
    return tuple(sorted((r - first[0], c - first[1]) for r, c in spots))  # type: ignore[operator]


def split_blocks(
    el: Elaboration,
    board: Board | None,
    types: list[PieceType],
    parts: list[Part],
    layout: CellLayout | None,
    which: str,
) -> list[int] | None:
    """A layout's codes with every block's cells turned into its parts, reading row by row:
    the first cell of a block not yet placed is its anchor."""
    if layout is None:
        return None
    codes = list(layout.codes)
    blocks = {p.code: p for p in types if p.shape is not None}
    if not blocks:
        return codes
    part_code = {(part.piece, part.offset): code for code, part in enumerate(parts)}
    assert board is not None
    done: set[int] = set()
    for i, code in enumerate(codes):
        if code not in blocks or i in done:
            continue
        piece = blocks[code]
        cell = board.cells[i]
        for k, (dr, dc) in enumerate(piece.shape or ()):
            target = board.at(cell.row + dr, cell.col + dc)  # type: ignore[operator]
            if target is None or codes[target] != code or target in done:
                where = layout.rows[(cell.row or 1) - 1] if layout.rows is not None and board.has_frame else layout.pos
                el.errors.error(
                    where,
                    f"the {which} does not show block {piece.symbol} whole at {cell.name}: "
                    f"a {piece.height} x {piece.width} block needs all its cells",
                    f"{piece.symbol} in every cell of its shape",
                )
                return None
            done.add(target)
            codes[target] = part_code[(code, k)]
    return codes


# ---- places


@dataclass
class PlaceContents:
    bags: list[list[int]]  # per place: how many of each piece (index code - 1)
    stacks: list[list[int]]  # per place: codes, bottom first (empty for bags)
    totals: list[int]  # every piece of each kind in the puzzle
    placed: list[int]  # how many of each kind the start puts on the cells and in the places


def start_places(
    el: Elaboration,
    places: list[Place],
    types: list[PieceType],
    found: PieceSet,
    cells: list[int] | None,
    multiplicity: dict[int, int],
) -> PlaceContents:
    names = [p.name for p in places]
    by_symbol = {p.symbol: p for p in types}
    bags = [[0] * len(types) for _ in places]
    stacks: list[list[int]] = [[] for _ in places]
    named = [0] * len(types)
    for code in cells or []:
        if code > 0 and code <= len(types):
            named[code - 1] += 1
    layouts = [x for x in el.of(s.PlaceLayout) if x.which == "start"]
    everyone: list[tuple[int, s.PlaceLayout]] = []
    for layout in layouts:
        place = _place(el, names, layout)
        if place is None:
            continue
        if layout.contents is None:
            everyone.append((place, layout))
            continue
        listed = _listed(el, layout, by_symbol, found, types) or []
        _no_blocks_in_places(el, layout, listed, types)
        for code in listed:
            named[code - 1] += 1
            _put(el, places[place], bags[place], stacks[place], code, layout.pos)
    totals = [named[i] if named[i] else multiplicity.get(i + 1, 1) for i in range(len(types))]
    for place, layout in everyone:
        _no_blocks_in_places(el, layout, [i + 1 for i in range(len(types)) if totals[i] > named[i]], types)
        for i in range(len(types)):
            for _ in range(totals[i] - named[i]):
                _put(el, places[place], bags[place], stacks[place], i + 1, layout.pos)
            named[i] = totals[i]
    return PlaceContents(bags, stacks, totals, named)


def _no_blocks_in_places(el: Elaboration, layout: s.PlaceLayout, codes: list[int], types: list[PieceType]) -> None:
    """A block covers several cells and always moves whole on the board: in a place it
    could only be put back on one cell, as half a block."""
    blocks = sorted({types[code - 1].symbol for code in codes if types[code - 1].shape is not None})
    if blocks:
        el.errors.error(
            layout.pos,
            f"{', '.join(blocks)} {'is a block' if len(blocks) == 1 else 'are blocks'}: "
            f"a block covers several cells and stays on the board, and {layout.place} is a place",
            "pieces of one cell in places (blocks stay on the cells)",
        )


def _place(el: Elaboration, names: list[str], layout: s.PlaceLayout) -> int | None:
    if layout.place in names:
        return names.index(layout.place)
    known = ", ".join(names) or "none: declare them with places A, B"
    el.errors.error(layout.pos, f"unknown place '{layout.place}'{suggest(layout.place, names)}", f"one of: {known}")
    return None


def _put(el: Elaboration, place: Place, bag: list[int], stack: list[int], code: int, pos: Pos) -> None:
    if place.stack:
        stack.append(code)
    elif bag[code - 1] >= MAX_IN_PLACE:
        too_many = f"a place holds at most {MAX_IN_PLACE} pieces of one kind{el.with_params()}"
        el.errors.error(pos, too_many, f"at most {MAX_IN_PLACE}")
    else:
        bag[code - 1] += 1


def _listed(
    el: Elaboration, layout: s.PlaceLayout, by_symbol: dict[str, PieceType], found: PieceSet, types: list[PieceType]
) -> list[int] | None:
    """The codes a place layout names, in order."""
    if isinstance(layout.contents, s.Layout):
        written = layout.contents.items
        errors = len(el.errors.diagnostics)
        items = expand(el, written, by_symbol, "goal")  # ? is refused below, with _ and .
        if len(el.errors.diagnostics) > errors:
            return None  # an unknown piece, already reported (it reads as _ only to keep counts right)
        if not all(isinstance(item, Lit) and item.code != EMPTY for item in items):
            where = _written_at(written, lambda word: word in ("_", "?", ".")) or layout.pos
            el.errors.error(where, "a place holds pieces: _, ? and . mean nothing here", "piece symbols")
        out = [item.code for item in items if isinstance(item, Lit) and item.code != EMPTY]
        grouped = [types[code - 1].symbol for code in dict.fromkeys(out) if code in found.grouped]
        if grouped:
            where = _written_at(written, grouped[0].__eq__) or layout.pos
            what = f"{grouped[0]} is one piece" if len(grouped) == 1 else f"{', '.join(grouped)} are pieces"
            el.errors.error(where, f"{what} of a group: write everyone", "everyone")
        return out
    assert layout.contents is not None
    computed = _computed(el, layout.contents, layout.pos, layout.which, by_symbol, found)  # type: ignore[arg-type]
    if computed is None:
        return None
    return [item.code for item in computed if isinstance(item, Lit) and item.code != EMPTY]


def _written_at(items: tuple[s.LayoutItem, ...], wanted: Callable[[str], bool]) -> Pos | None:
    """Where the first cell that `wanted` picks (a whole symbol, or one character of a row
    such as `F_G`) is written among a layout's items."""
    for item in items:
        if isinstance(item, s.Cells):
            if wanted(item.text):
                return item.pos.moved(0, len(item.text))
            found = next((i for i, ch in enumerate(item.text) if wanted(ch)), None)
            if found is not None:
                return item.pos.moved(found)
        elif (isinstance(item, s.Wild) and wanted("?")) or (isinstance(item, s.NoCells) and wanted(".")):
            return item.pos
        elif isinstance(item, (s.Group, s.Repeat)):
            inner = _written_at(item.items if isinstance(item, s.Group) else (item.item,), wanted)
            if inner is not None:
                return inner
    return None


def goal_places(
    el: Elaboration, places: list[Place], types: list[PieceType], found: PieceSet, contents: PlaceContents
) -> list[PlaceGoal]:
    totals = contents.totals
    names = [p.name for p in places]
    by_symbol = {p.symbol: p for p in types}
    wanted: dict[int, list[int]] = {}
    written: dict[int, Pos] = {}  # where each place's goal list was written, for errors
    sequences: dict[int, list[int]] = {}
    for layout in (x for x in el.of(s.PlaceLayout) if x.which == "goal"):
        place = _place(el, names, layout)
        if place is None:
            continue
        if layout.contents is None:
            counts = wanted.setdefault(place, [0] * len(types))
            for i, total in enumerate(totals):
                counts[i] = max(counts[i], total)
            continue
        listed = _listed(el, layout, by_symbol, found, types)
        if listed is None:
            continue
        _no_blocks_in_places(el, layout, listed, types)
        if places[place].stack:
            sequences[place] = listed
            continue
        counts = wanted.setdefault(place, [0] * len(types))
        written[place] = layout.contents.pos
        for code in listed:
            counts[code - 1] += 1
    for place, counts in wanted.items():
        for i, count in enumerate(counts):
            if count > totals[i]:
                el.errors.error(
                    written.get(place, Pos(1, 1)),
                    f"the goal wants {count} {types[i].symbol} at {places[place].name} but there are {totals[i]}",
                    f"at most {totals[i]}",
                )
    out = [PlaceGoal(p, tuple(c), None) for p, c in sorted(wanted.items())]
    out += [PlaceGoal(p, None, tuple(seq)) for p, seq in sorted(sequences.items())]
    return out


def everyone_is_in_the_start(el: Elaboration, types: list[PieceType], contents: PlaceContents) -> None:
    """`goal at P: everyone` wants every piece there; a piece the start never places could
    never be there, and the goal could never be reached."""
    absent = [types[i].symbol for i, total in enumerate(contents.totals) if total and not contents.placed[i]]
    if not absent:
        return
    listed = ", ".join(absent)
    for layout in el.of(s.PlaceLayout):
        if layout.which == "goal" and layout.contents is None:
            el.errors.error(
                layout.pos,
                f"the goal wants everyone at {layout.place}, and the start never places {listed}",
                f"{listed} in the start (start at PLACE: ...), or a goal that lists the pieces it wants",
            )
