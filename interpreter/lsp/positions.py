"""Positions between puzint and the editor.

puzint counts lines and columns from 1, and a column in Python characters (code points);
LSP counts from 0, and a column in the code units of the encoding agreed at initialize,
UTF-16 unless the client offers another. A line with ● (one unit either way) or an emoji (two
UTF-16 units, one code point) would otherwise put every mark after it off by one.
"""

from __future__ import annotations

from lsprotocol import types

from ..errors import Pos
from ..sources import line_ends

BOM = "\ufeff"


def units(text: str, encoding: str) -> int:
    """How many code units of `encoding` ("utf-8", "utf-16" or "utf-32") `text` takes."""
    if encoding == "utf-32":
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", errors="surrogatepass"))
    return sum(2 if ord(char) > 0xFFFF else 1 for char in text)


class Positions:
    """One document's lines, as both puzint and LSP count them (a line ends at `\\n`, `\\r\\n`
    or `\\r`, and nowhere else), with conversions both ways."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.bom = text.startswith(BOM)  # puzint reads past it: its columns on line 1 start after it
        self.lines = line_ends(text).split("\n")  # a text that ends its last line has an empty one after
        self.encoding = encoding

    def line(self, index: int) -> str:
        """The text of a 0-based line ("" past the end)."""
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def position(self, index: int, column: int) -> types.Position:
        """0-based line, 0-based Python column (cut to the line) -> LSP position."""
        if index >= len(self.lines):
            return types.Position(line=len(self.lines) - 1, character=units(self.lines[-1], self.encoding))
        text = self.lines[index]
        return types.Position(line=index, character=units(text[: max(0, min(column, len(text)))], self.encoding))

    def range_of(self, pos: Pos) -> types.Range:
        """A puzint position as an LSP range; "no position" (line 0) is the start of the file."""
        if pos.line <= 0:
            start = types.Position(line=0, character=0)
            return types.Range(start=start, end=start)
        index = pos.line - 1
        first = pos.column - 1 + (1 if index == 0 and self.bom else 0)
        return types.Range(start=self.position(index, first), end=self.position(index, first + max(pos.width, 0)))

    def column_at(self, position: types.Position) -> int:
        """An LSP position's column as a 0-based Python column of its line (cut to the line)."""
        text = self.line(position.line)
        counted = 0
        for column, char in enumerate(text):
            if counted >= position.character:
                return column
            counted += units(char, self.encoding)
        return len(text)
