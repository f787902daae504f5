"""Text that puzint did not write (a spec's title, `about`, descriptions and glyphs, the rules
that --explain quotes, file names, the line of a spec an error echoes) shown on a terminal:
control characters, and the Unicode controls that reorder a line, are written out as
escapes (`\\x1b`, `\\u202e`), never sent. A spec can then neither clear the screen, nor set
the window's title, nor make a line read other than it is; and a character that rich would
drop (a carriage return) is seen too.

`visible` does this to a string where the text enters a drawing or a message;
`text.VisibleControls` does it again to everything the command's consoles print, so that
text that reaches them by a way not thought of is escaped all the same.
"""

from __future__ import annotations

import re

UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufffe\uffff]")
NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def visible(text: str) -> str:
    """`text` with every control character written out as its escape (as Python writes it)."""
    return UNSAFE.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def visible_lines(text: str) -> str:
    """`visible`, the line breaks kept (they are the layout's, not the text's)."""
    return "\n".join(visible(line) for line in text.split("\n"))
