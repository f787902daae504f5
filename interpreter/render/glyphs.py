"""The characters a drawing is made of, in Unicode or in plain ASCII.

Some terminals cannot show ● ○ · → at all (a legacy code page), and in others they are
double width (East Asian terminals), which breaks every column. `--ascii` (or an output
encoding that cannot write them) draws with ASCII alone: pieces by their symbols, `.` for an
empty cell, `->` for a move.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..escapes import visible


@dataclass(frozen=True)
class Glyphs:
    ascii: bool
    empty: str
    arrow: str
    between: str  # between two boards drawn side by side
    separator: str  # between the parts of a summary line
    forbidden: str
    target: str = "◌"  # an empty cell the goal wants a piece on (render/targets.py)
    exits: tuple[str, str, str, str] = ("↑", "↓", "←", "→")  # a block leaves the board: up, down, left, right

    def piece(self, symbol: str, drawn: str) -> str:
        """The piece as drawn: its glyph (its symbol where ASCII is asked for and the glyph is
        not), a control character written out as its escape (a glyph is the spec's text)."""
        return visible(symbol if self.ascii and not drawn.isascii() else drawn)

    def listed(self, symbol: str, drawn: str) -> str:
        """The piece as drawn where pieces are listed by name (a place's pieces, a load that
        crosses): its glyph, then its member of a group (`H3`, one husband per couple: the
        group's glyph and 3), so that pieces of one glyph stay told apart."""
        if drawn == symbol:  # a numbered piece (`pieces 1..16`) is drawn as its number
            return visible(symbol)
        return self.piece(symbol[:1], drawn) + visible(symbol[1:])


UNICODE = Glyphs(False, "·", "→", " => ", " · ", "✗")
ASCII = Glyphs(True, ".", "->", " => ", " | ", "x", ":", ("^", "v", "<", ">"))
SAMPLE = "●○·→✗"


def choose(force_ascii: bool, encoding: str | None) -> Glyphs:
    """ASCII when asked for, or when the output's encoding cannot write the Unicode glyphs."""
    if force_ascii:
        return ASCII
    try:
        SAMPLE.encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return ASCII
    return UNICODE
