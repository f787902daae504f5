"""A move in words, as every drawing captions it: `● 5 → 3`, `F G left → right`, `r2c2 H→T`
(the text output's move column, the pictures' captions, the state graph's edges, the moves
`--explain` says a rule forbids)."""

from __future__ import annotations

from rich.text import Text

from ..compiler import CompiledPuzzle, MoveLabel
from .glyphs import UNICODE, Glyphs


def describe(label: MoveLabel, compiled: CompiledPuzzle, short: bool = False, drawn: Glyphs = UNICODE) -> Text:
    """`● 5 → 3`: each moving piece (as drawn) with its cells; pieces crossing together are
    listed once with their destination; counters that changed. (The rule's name is a column
    of its own, so that descriptions line up.)"""
    puzzle = compiled.puzzle
    glyphs = {p.symbol: drawn.piece(p.symbol, p.glyph) for p in puzzle.pieces}
    arrow = drawn.arrow
    text = Text()
    movers = label.movers
    places = {p.name for p in puzzle.places}
    if (
        movers
        and all(src in places and dst in places for _, src, dst in movers)
        and len({d for _, _, d in movers}) == 1
    ):
        listed = {p.symbol: drawn.listed(p.symbol, p.glyph) for p in puzzle.pieces}
        who = " ".join(listed.get(symbol, symbol) for symbol, _, _ in movers)
        source = f" {movers[0][1]}" if len(movers) == 1 else ""  # a load shows only where it goes
        text.append(f"{who}{source} {arrow} {movers[0][2]}")
        return text
    parts: list[str] = []
    for symbol, src, dst, turned in _in_place(movers):
        shown = glyphs.get(symbol, symbol)
        if turned is not None:  # the piece on a cell became another: a coin turned over
            parts.append(f"{src} {shown}{arrow}{glyphs.get(turned, turned)}")
        elif src is None:
            parts.append(f"{shown} on {dst}" if short else f"{shown} appears at {dst}")
        elif dst is None:
            parts.append(f"{shown} off {src}" if short else f"{shown} leaves {src}")
        else:
            parts.append(f"{shown} {src}{arrow}{dst}" if short else f"{shown} {src} {arrow} {dst}")
    if label.at is not None:
        parts.append(label.at)
    changed = [(n, a, b) for n, a, b in label.changes if n != "cursor"]
    if changed:
        parts.append(" ".join(f"{n} {a}{arrow}{b}" for n, a, b in changed))
    text.append(", ".join(parts))
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
