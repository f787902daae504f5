"""Pictures read from a file beside the spec: `board from "FILE"`, `regions from "FILE"`,
`start from "FILE"`, `goal from "FILE"`.

The file's lines are the picture's rows, written as they would stand indented under
`board:` (`regions:`, `start:`, `goal:`): a long Killer Sudoku's cages or a large start kept
out of the spec. The file is read as a level file is (`levels.read_beside`: beside the spec,
text of at most MAX_LEVEL_FILE bytes), and its rows parsed by the spec's own grammar as the
block they stand for, so that a row means the same in a file as pasted. A mistake in a row is
refused at the file's name in the spec, saying the line and column inside the file; the
picture's positions are the file's name in the spec, where later checks (a row too short)
point.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from lark import Lark, UnexpectedInput

from ..errors import Diagnostic, FileSpot, Pos, SpecError
from . import syntax as s
from .levels import FileWords, read_beside

PICTURE_FILE = FileWords("picture file", "the picture pasted under its statement", "board.txt", "picture rows")
INDENT = "    "  # each row of the file, as it stands in the block made of it


def expand_pictures(
    statements: Sequence[s.Statement],
    folder: Path | None,
    parser: Lark,
    builder: Callable[[Any], Sequence[s.Statement]],
    diagnose: Callable[[UnexpectedInput, Lark, str], Diagnostic],
) -> tuple[s.Statement, ...]:
    """The statements with each picture from a file replaced by the picture it reads (inside
    `if` blocks too)."""
    out: list[s.Statement] = []
    for st in statements:
        if isinstance(st, s.PictureFrom):
            out.append(_read(st, folder, parser, builder, diagnose))
        elif isinstance(st, s.If):
            then = expand_pictures(st.then, folder, parser, builder, diagnose)
            otherwise = expand_pictures(st.otherwise, folder, parser, builder, diagnose)
            out.append(st._replace(then=then, otherwise=otherwise))
        else:
            out.append(st)
    return tuple(out)


def _read(
    st: s.PictureFrom,
    folder: Path | None,
    parser: Lark,
    builder: Callable[[Any], Sequence[s.Statement]],
    diagnose: Callable[[UnexpectedInput, Lark, str], Diagnostic],
) -> s.Statement:
    lines = read_beside(st.file, st.file_pos, folder, PICTURE_FILE).split("\n")
    rows = [line.rstrip() for line in lines]
    first = next((i for i, row in enumerate(rows) if row.strip()), None)
    if first is None:
        raise _fail(st, f"{st.file!r} holds no row of a picture", "the picture's rows, one a line")
    last = max(i for i, row in enumerate(rows) if row.strip())
    # the block the file stands for: its line k is line k + 1 of this text, a column 4 further on
    text = f"{st.which}:\n" + "".join(f"{INDENT}{row}\n" for row in rows[: last + 1])
    try:
        found = builder(parser.parse(text))
    except UnexpectedInput as exc:
        raise _inside(st, diagnose(exc, parser, text)) from None
    except SpecError as exc:
        raise _inside(st, exc.diagnostics[0]) from None
    if len(found) != 1:
        raise _fail(st, f"{st.file!r} holds more than the rows of one picture", "the picture's rows, one a line")
    placed: s.Statement = _placed(found[0], st)
    return placed


def _inside(st: s.PictureFrom, diag: Diagnostic) -> SpecError:
    """A mistake in the file's rows, said at the file's name with its line and column there."""
    pos = _in_file(diag.pos, st)
    if pos.inside is None:
        return _fail(st, f"{st.file!r}, its end: {diag.message}", _expected(st, diag.expected))
    return SpecError([Diagnostic(pos, diag.message, _expected(st, diag.expected))])


def _expected(st: s.PictureFrom, expected: str | None) -> str | None:
    """A regions' picture is names and `.`: the grammar's offer of a layout's patterns
    (`(`, `*`, `?x`) does not apply to it."""
    return "names of regions (letters and digits), `.` for no cell" if st.which == "regions" else expected


def _in_file(pos: Pos, st: s.PictureFrom) -> Pos:
    """A place in the block made of the file -> the file's name in the spec, with the spot in
    the file (the block's line k + 1 is the file's line k, 4 columns further on)."""
    line, column = pos.line - 1, max(1, pos.column - len(INDENT))
    if line < 1:
        return st.file_pos
    return replace(st.file_pos, inside=FileSpot(st.file, line, column))


def _placed(node: Any, st: s.PictureFrom) -> Any:
    """The node with every position in it made the file's name in the spec, keeping the spot
    in the file."""
    if isinstance(node, Pos):
        return _in_file(node, st)
    fields = getattr(node, "_fields", None)
    if isinstance(node, tuple) and fields is not None:
        return type(node)(*(_placed(getattr(node, f), st) for f in fields))
    if isinstance(node, tuple):
        return tuple(_placed(item, st) for item in node)
    return node


def _fail(st: s.PictureFrom, message: str, expected: str | None = None) -> SpecError:
    return SpecError([Diagnostic(st.file_pos, message, expected)])
