"""Elaboration of the pieces: symbols, kinds, glyphs, attributes, one piece per member of a
group, numbered and lettered pieces, and blocks (pieces that cover several cells)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ..errors import Pos, suggest
from ..model import expr as m
from ..model.board import Vector
from ..model.puzzle import PieceType
from . import syntax as s
from .expressions import Value, type_name

if TYPE_CHECKING:
    from .context import Elaboration

MAX_CODES = 255  # a cell holds one byte: pieces and the parts of blocks
BUILT_IN_ATTRIBUTES = ("row", "col", "value", "width", "height", "symbol", "kind")


@dataclass
class PieceSet:
    types: list[PieceType] = field(default_factory=list)
    kinds: dict[str, set[int]] = field(default_factory=dict)  # kind words -> codes
    attributes: dict[str, str] = field(default_factory=dict)  # declared attribute -> NUM or TEXT
    block_from_start: set[int] = field(default_factory=set)  # codes whose shape the start gives
    positions: dict[int, Pos] = field(default_factory=dict)
    grouped: set[int] = field(default_factory=set)  # codes made one per member of a group
    multiplicity: dict[int, int] = field(default_factory=dict)  # grouped codes: members that repeat
    squares: dict[int, tuple[Vector, ...]] = field(default_factory=dict)  # `shape:` pictures, for tiling

    def by_symbol(self) -> dict[str, PieceType]:
        return {p.symbol: p for p in self.types}

    def frozen_kinds(self) -> dict[str, frozenset[int]]:
        return {k: frozenset(v) for k, v in self.kinds.items()}


def pieces(el: Elaboration) -> PieceSet:
    found = PieceSet()
    groups = _groups(el)
    symbols: dict[str, Pos] = {}

    def add(pos: Pos, piece: PieceType, words: tuple[str, ...]) -> int | None:
        if piece.symbol in symbols:
            el.errors.error(
                pos, f"piece '{piece.symbol}' is declared twice (first on line {symbols[piece.symbol].line})"
            )
            return None
        symbols[piece.symbol] = pos
        code = len(found.types) + 1
        placed = PieceType(
            code, piece.symbol, piece.kind, piece.description, piece.glyph, piece.attributes, piece.value, piece.shape
        )
        found.types.append(placed)
        found.positions[code] = pos
        for word in {*words, piece.symbol}:
            found.kinds.setdefault(word, set()).add(code)
        return code

    for stmt in el.statements:
        if isinstance(stmt, s.PieceDecl):
            _piece(el, stmt, groups, found, add)
        elif isinstance(stmt, s.PiecesDecl):
            _pieces(el, stmt, found, add)
    if len(found.types) > MAX_CODES:
        el.errors.error(
            found.positions[MAX_CODES + 1], f"puzint takes at most {MAX_CODES} kinds of piece{el.with_params()}"
        )
    counters = el.of(s.CounterDecl) or el.of(s.Fill)  # a puzzle of counters alone needs no pieces
    if not found.types and not counters and not el.of(s.PieceDecl) and not el.of(s.PiecesDecl):
        el.errors.error(Pos(1, 1), "the spec declares no pieces", "piece SYMBOL ... or pieces TEXT")
    return found


def _groups(el: Elaboration) -> dict[str, list[int | str]]:
    groups: dict[str, list[int | str]] = {}
    for stmt in el.of(s.GroupDecl):
        el.check_name(stmt.pos, stmt.name, "a group")
        value = el.eval(stmt.members)
        if not isinstance(value, (range, str, tuple)):
            if value is not None:
                el.errors.error(stmt.members.pos, "a group's members are a range, a list or text", "1..n or letters(n)")
            el.errors.refuse(f"group {stmt.name}")
        elif isinstance(value, tuple) and any(isinstance(v, tuple) for v in value):
            el.errors.error(
                stmt.members.pos, "a group's members are numbers or letters, not lists", "1..n or letters(n)"
            )
            el.errors.refuse(f"group {stmt.name}")
        elif el.within(stmt.members.pos, value, "this group", MAX_CODES):
            groups[stmt.name] = list(cast(range | tuple[int, ...] | str, value))
            if not groups[stmt.name]:
                el.errors.error(stmt.members.pos, f"group '{stmt.name}' has no members{el.with_params()}")
        else:
            el.errors.refuse(f"group {stmt.name}")
    return groups


def _attributes(el: Elaboration, stmt: s.PieceDecl, found: PieceSet) -> tuple[tuple[str, int | str], ...] | None:
    out: list[tuple[str, int | str]] = []
    for name, expr in stmt.attributes:
        if name.name in BUILT_IN_ATTRIBUTES:
            el.errors.error(name.pos, f"'{name.name}' is an attribute every piece already has", "another name")
            continue
        el.check_name(name.pos, name.name, "an attribute")
        value = el.eval(expr)
        if value is None:
            return None
        if not isinstance(value, (int, str)) or isinstance(value, bool):
            el.errors.error(expr.pos, f"an attribute is a number or text, got {type_name(value)}", "a number or text")
            continue
        _note_attribute(el, found, name.name, value, name.pos)
        out.append((name.name, value))
    return tuple(out)


def _note_attribute(el: Elaboration, found: PieceSet, name: str, value: Value, pos: Pos) -> None:
    kind = m.TEXT if isinstance(value, str) else m.NUM
    if found.attributes.setdefault(name, kind) != kind:
        el.errors.error(pos, f"attribute '{name}' is a number for some pieces and text for others")


def _glyph(el: Elaboration, pos: Pos, drawn: str | None, symbol: str) -> str:
    glyph = drawn if drawn is not None else symbol
    if len(glyph) != 1:
        el.errors.error(pos, f"a piece is drawn with one character, got '{glyph}'", "one character")
        return glyph[:1] or "?"
    return glyph


def _block_shape(el: Elaboration, size: tuple[s.Expr, s.Expr] | None, pos: Pos) -> tuple[Vector, ...] | None:
    if size is None:
        return None
    rows = el.eval_int(size[0], "a block's height", 1)
    cols = el.eval_int(size[1], "a block's width", 1)
    if rows is None or cols is None:
        return None
    if rows * cols > 64:
        el.errors.error(pos, f"a block of {rows} x {cols} cells is larger than puzint takes (64 cells)")
        return None
    return tuple((r, c) for r in range(rows) for c in range(cols))


def _squares(el: Elaboration, stmt: s.PieceDecl) -> tuple[Vector, ...] | None:
    """A `shape:` picture's squares as steps from its first square in reading order: each
    letter, digit or `_` is a square, each `.` none."""
    assert stmt.shape is not None
    if stmt.block:
        el.errors.error(stmt.pos, "a block moves as one and a shape is placed by tiling: a piece is one or the other")
        return None
    found: list[Vector] = []
    for r, row in enumerate(stmt.shape):
        c = 0
        for item in row.items:
            if isinstance(item, s.Cells):
                found.extend((r, c + i) for i in range(len(item.text)))
                c += len(item.text)
            elif isinstance(item, s.NoCells):
                c += item.squares
            else:
                el.errors.error(
                    item.pos, "a shape's picture has a letter for each square and `.` for none", "letters and dots"
                )
                return None
    if not found:
        el.errors.error(stmt.pos, f"the shape of '{stmt.symbol}' has no square", "a letter for each square")
        return None
    if not _joined(found):
        el.errors.error(
            stmt.shape[0].pos, f"the squares of '{stmt.symbol}' do not hang together", "squares that touch side by side"
        )
        return None
    first = found[0]
    return tuple((r - first[0], c - first[1]) for r, c in found)


def _joined(squares: list[Vector]) -> bool:
    """Whether the squares are one piece, each reached from the first through squares that
    share a side."""
    left, seen = set(squares), {squares[0]}
    todo = [squares[0]]
    while todo:
        r, c = todo.pop()
        for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if near in left and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(left)


def _piece(el, stmt: s.PieceDecl, groups, found: PieceSet, add) -> None:  # type: ignore[no-untyped-def]
    if len(stmt.symbol) != 1:
        el.errors.error(stmt.pos, f"a piece symbol is one letter, got '{stmt.symbol}'", "one letter")
        return
    kind = stmt.kind or stmt.symbol
    el.check_name(stmt.kind_pos or stmt.pos, kind, "a kind of piece")
    glyph = _glyph(el, stmt.pos, stmt.drawn, stmt.symbol)
    attributes = _attributes(el, stmt, found)
    if attributes is None:
        return
    shape = _block_shape(el, stmt.block_size, stmt.pos) if stmt.block else None
    squares = _squares(el, stmt) if stmt.shape is not None else None
    if stmt.per_group is None:
        code = add(
            stmt.pos, PieceType(0, stmt.symbol, kind, stmt.description or kind, glyph, attributes, None, shape), (kind,)
        )
        if code is not None and stmt.block and shape is None:
            found.block_from_start.add(code)
        if code is not None and squares is not None:
            found.squares[code] = squares
        return
    if stmt.shape is not None:
        el.errors.error(
            stmt.pos, "a tiling places each piece of a shape once: one piece per member of a group has no shape yet"
        )
    if stmt.block:
        el.errors.error(stmt.pos, "a block cannot be one piece per member of a group", "a block, or per GROUP")
    members = groups.get(stmt.per_group)
    if members is None:
        known = ", ".join(groups) or "none declared"
        el.errors.missing(
            f"group {stmt.per_group}",
            stmt.pos,
            f"unknown group '{stmt.per_group}'{suggest(stmt.per_group, groups)}",
            f"a group ({known})",
        )
        return
    seen: dict[str, int] = {}
    for member in members:
        symbol = f"{stmt.symbol}{member}"
        if symbol in seen:  # a repeated member: one more interchangeable piece
            found.multiplicity[seen[symbol]] = found.multiplicity.get(seen[symbol], 1) + 1
            continue
        _note_attribute(el, found, stmt.per_group, member, stmt.pos)
        piece = PieceType(
            0, symbol, kind, stmt.description or kind, glyph, (*attributes, (stmt.per_group, member)), None, None
        )
        code = add(stmt.pos, piece, (kind, stmt.symbol))
        if code is not None:
            found.grouped.add(code)
            seen[symbol] = code


def _pieces(el, stmt: s.PiecesDecl, found: PieceSet, add) -> None:  # type: ignore[no-untyped-def]
    value = el.eval(stmt.source)
    if value is None:
        return
    block = False
    for option, argument, pos in stmt.options:
        if option == "block" and argument is None:
            block = True
        else:
            el.errors.error(pos, f"'{option}' goes with `piece`, one piece at a time", "piece SYMBOL ...")
    if isinstance(value, (range, tuple, str)) and not el.within(
        stmt.source.pos, value, "this set of pieces", MAX_CODES
    ):
        return
    if isinstance(value, (range, tuple, str)) and len(value) == 0:
        el.errors.error(stmt.source.pos, "this set of pieces is empty", "at least one piece (1..n with n >= 1)")
        return
    if isinstance(value, (range, tuple)):
        if block:
            el.errors.error(stmt.pos, "numbered pieces cannot be blocks", "pieces TEXT block")
        for number in value:
            symbol = str(number)
            add(stmt.pos, PieceType(0, symbol, "number", stmt.description or "number", symbol, (), number), ("number",))
        return
    if not isinstance(value, str):
        el.errors.error(
            stmt.source.pos,
            f"pieces takes text (one piece per letter), a range or a list of numbers, got {type_name(value)}",
            "letters(n) or 1..n",
        )
        return
    for ch in value:
        if not ch.isalnum():
            el.errors.error(stmt.source.pos, f"'{ch}' cannot be a piece symbol", "letters or digits")
            continue
        code = add(stmt.pos, PieceType(0, ch, ch, stmt.description or "piece", ch), (ch,))
        if code is not None and block:
            found.block_from_start.add(code)


def listed_symbols(symbols: Iterable[str]) -> str:
    """The declared symbols for a message: numbers in order, a run of them as `1..25`."""
    numbers = sorted(int(k) for k in symbols if k.isdigit())
    others = sorted(k for k in symbols if not k.isdigit())
    runs: list[str] = []
    for n in numbers:
        if runs and runs[-1].split("..")[-1] == str(n - 1):
            runs[-1] = f"{runs[-1].split('..')[0]}..{n}"
        else:
            runs.append(str(n))
    runs = [run.replace("..", ", ") if run.count("..") and _span(run) == 2 else run for run in runs]
    return ", ".join(runs + others)


def _span(run: str) -> int:
    low, high = run.split("..")
    return int(high) - int(low) + 1


def one_cell_a_word(text: str, symbols: Collection[str]) -> bool:
    """Whether a written word must be refused rather than split into cells: among pieces
    whose symbols have several characters (`pieces 1..25`), a word of several characters
    that is no symbol (`26`: 2 and 6, or a typo?) cannot be read safely; a run of `_` and
    `?` stays a cell per character."""
    return (
        len(text) > 1
        and text not in symbols
        and any(len(symbol) > 1 for symbol in symbols)
        and any(ch not in "_?" for ch in text)
    )


def not_a_piece(text: str, symbols: Iterable[str]) -> str:
    return (
        f"'{text}' is not a piece ({listed_symbols(symbols)}); where a piece's symbol has several characters, "
        "each word is one cell"
    )
