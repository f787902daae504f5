"""Levels in a community's own format: `level:` rows, one character a square, read through
a `legend:` that says what each character stands for at the start and in the goal. A
Sokoban level in XSB text (`#` wall, `.` target, `$` box, `*` box on a target, `@` worker,
`+` worker on a target) pastes in unchanged:

    legend:
        "#" = .          # a square with no cell: a wall
        " " = _ ?        # floor: empty at the start, anything in the goal
        "." = _ B        # a target: a box in the goal
        "$" = B
        "*" = B B
        "@" = M
        "+" = M B

A level is the three pictures it stands for, made here from the parsed statements before
elaboration: `board:` (a cell wherever the character is not a wall), `start:` and, where the
legend gives a goal for some character, `goal:` (`?` for the others). The parser quotes the
rows first (`quote_levels`), so that `#` and spaces are characters of the level, not a
comment and separators.

`level N from "FILE"` takes level N of a collection file as its author distributes it (David
W. Skinner's Microban, say: levels one after another, with `;` titles and comments between
them). The file is read beside the spec's own file, when the spec is parsed, and cut into its
levels with the legend: a level is a run of lines made of the legend's characters only; a
blank line, a line that starts with `;`, or any line with another character (a title, `Author:
...`) stands between levels; a line between two rows that is a level's row but for a character
or two is a mistake, refused where it stands. Elaboration, which knows N, puts that level's pictures where the
statement stands (`chosen_level`)."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import Diagnostic, Pos, SpecError, suggest
from ..sources import BOM, line_ends
from . import syntax as s

MAX_LEVEL_FILE = 1_000_000  # bytes, as a spec: Microban's 155 levels take 17 KB

LEVEL_LINE = re.compile(r"^([ \t]*)level[ \t]*:[ \t]*(#.*)?$")


def quote_levels(text: str) -> str:
    """Each row of a `level:` block (the lines after it indented further, up to a less
    indented line; a blank line inside is skipped, as in a `board:` picture) put between
    double quotes, in place: the quote takes the column of the indentation's last space, so
    every character keeps its line and column. (A block that ended at a blank line left a row
    of walls after it to be read as a comment, `#  $.  #`: the level lost a row, unsaid.)"""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        found = LEVEL_LINE.match(lines[i])
        i += 1
        if found is None:
            continue
        outer = len(found.group(1).expandtabs(8))
        block = i
        while block < len(lines) and _inside(lines, block, outer):
            block += 1
        rows = [r for r in range(i, block) if lines[r].strip()]
        if rows and all('"' not in lines[r] and "\t" not in lines[r] for r in rows):
            inner = min(_indent(lines[r]) for r in rows)
            for r in rows:
                row = lines[r]
                lines[r] = row[: inner - 1] + '"' + row[inner:] + '"'
        i = block
    return "\n".join(lines)


def _inside(lines: list[str], at: int, outer: int) -> bool:
    """Whether line `at` belongs to a `level:` block whose line is indented `outer`: it is
    indented further, or it is blank and the next line that is not is."""
    line = lines[at]
    if line.strip():
        return _indent(line) > outer
    after = next((later for later in lines[at + 1 :] if later.strip()), "")
    return bool(after) and _indent(after) > outer


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def expand_levels(statements: Sequence[s.Statement], folder: Path | None = None) -> tuple[s.Statement, ...]:
    """The statements with every `level:` replaced by the pictures it stands for, and every
    `level N from "FILE"` given the levels of FILE, read in `folder` (the spec's own; None for
    a spec given as text, which has none)."""
    legends = [st for st in statements if isinstance(st, s.Legend)]
    if not _has_level(statements):
        if legends:
            raise _fail(
                legends[0].pos, "a legend reads the rows of a `level:` picture, and this spec has none", "level:"
            )
        return tuple(statements)
    if not legends:
        level = _first_level(statements)
        raise _fail(level.pos, "a level's characters mean what a `legend:` says, and this spec has none", "legend:")
    if len(legends) > 1:
        raise _fail(legends[1].pos, f"legend is given twice (first on line {legends[0].pos.line})", "one legend")
    legend = _read_legend(legends[0])
    return _replaced(statements, legend, folder)


def _has_level(statements: Sequence[s.Statement]) -> bool:
    return any(
        isinstance(st, (s.Level, s.LevelFrom))
        or (isinstance(st, s.If) and (_has_level(st.then) or _has_level(st.otherwise)))
        for st in statements
    )


def _first_level(statements: Sequence[s.Statement]) -> s.Level | s.LevelFrom:
    for st in statements:
        if isinstance(st, (s.Level, s.LevelFrom)):
            return st
        if isinstance(st, s.If):
            for block in (st.then, st.otherwise):
                if _has_level(block):
                    return _first_level(block)
    raise AssertionError("no level")


def _read_legend(legend: s.Legend) -> dict[str, s.LegendEntry]:
    entries: dict[str, s.LegendEntry] = {}
    for entry in legend.entries:
        if len(entry.char) != 1:
            raise _fail(entry.pos, f"a legend gives one character, got {entry.char!r}", 'one character: "#"')
        if entry.char in entries:
            raise _fail(entry.pos, f"{entry.char!r} is in the legend twice", "each character once")
        if isinstance(entry.start, s.Wild):
            raise _fail(
                entry.start.pos, "? (anything) is for the goal; the start needs what a square holds", "_ or a piece"
            )
        wall = isinstance(entry.start, s.NoCells)
        if entry.goal is not None and isinstance(entry.goal, s.NoCells) != wall:
            raise _fail(
                entry.goal.pos,
                "a square without a cell has none in the goal either, and a cell has one",
                "the same kind of square in both",
            )
        entries[entry.char] = entry
    return entries


def _replaced(
    statements: Sequence[s.Statement], legend: dict[str, s.LegendEntry], folder: Path | None
) -> tuple[s.Statement, ...]:
    out: list[s.Statement] = []
    for st in statements:
        if isinstance(st, s.Level):
            out.extend(_pictures(st, legend))
        elif isinstance(st, s.LevelFrom):
            out.append(read_level_file(st, folder, legend))
        elif isinstance(st, s.If):
            then, otherwise = _replaced(st.then, legend, folder), _replaced(st.otherwise, legend, folder)
            out.append(st._replace(then=then, otherwise=otherwise))
        elif not isinstance(st, s.Legend):
            out.append(st)
    return tuple(out)


def spec_folder(filename: str) -> Path | None:
    """The folder a spec's level files are read in: its own file's, None for a spec that has
    no file (given as text: `<text>`, an editor's unsaved buffer)."""
    try:
        return Path(filename).resolve().parent if os.path.isfile(filename) else None
    except (OSError, ValueError):  # a name no file system takes (a NUL in it, say)
        return None


@dataclass(frozen=True)
class FileWords:
    """How the messages about a file beside the spec name it and what it should hold."""

    noun: str  # "level file"
    pasted: str  # the other way to give it: "the level pasted under `level:`"
    example: str  # a file name: "levels.xsb"
    contents: str  # what it holds: "levels"


LEVEL_FILE = FileWords("level file", "the level pasted under `level:`", "levels.xsb", "levels")


def read_beside(name: str, where: Pos, folder: Path | None, words: FileWords) -> str:
    """The text of the file `name` in the spec's folder, refused at `where` (the file's name in
    the spec) where there is no folder, the path leaves it or names no readable text file of at
    most MAX_LEVEL_FILE bytes."""
    if folder is None:
        raise _fail(
            where,
            f"this spec has no file of its own (it was given as text), so there is no folder to read {name!r} in",
            f"the spec saved as a file beside the {words.noun}, or {words.pasted}",
        )
    if not name or Path(name).is_absolute() or name.startswith(("/", "\\")):
        raise _fail(
            where, f"{name!r} is not a path relative to the spec's folder", f'a file name such as "{words.example}"'
        )
    path = folder / name
    try:
        status = os.stat(path)  # through a link, to what it leads to
        if not stat.S_ISREG(status.st_mode):
            raise _fail(
                where, f"{name!r} is not a file (a folder, a device or a pipe)", f"a text file of {words.contents}"
            )
        if status.st_size > MAX_LEVEL_FILE:
            raise _too_large(name, where, words)
        with open(path, "rb") as handle:
            data = handle.read(MAX_LEVEL_FILE + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise _fail(
            where, f"cannot read the {words.noun} {name!r}: {reason} (in {folder})", "a file beside the spec"
        ) from None
    if len(data) > MAX_LEVEL_FILE:
        raise _too_large(name, where, words)
    return _text_of(data, name, where, words)


def read_level_file(st: s.LevelFrom, folder: Path | None, legend: dict[str, s.LegendEntry]) -> s.LevelFrom:
    """The statement with the levels of its file, cut with the legend's characters; a file
    that cannot be read, is not text or holds no level is refused at the file's name."""
    name = st.file
    text = read_beside(name, st.file_pos, folder, LEVEL_FILE)
    try:
        levels = split_levels(text, set(legend))
    except StrayCharacter as exc:
        chars = "".join(sorted(legend))
        raise _fail(
            st.file_pos,
            f"{name!r}, line {exc.line}, column {exc.column}: {exc.char!r} is not one of the legend's characters "
            f"{chars!r}, in a line between two rows of a level (it would cut the level in two)",
            "a level's rows made of the legend's characters only",
        ) from None
    if not levels:
        chars = "".join(sorted(legend))
        raise _fail(
            st.file_pos,
            f"{name!r} holds no level: no line of it is made of the legend's characters {chars!r} only",
            "a file of levels, one row a line, that the legend reads",
        )
    return st._replace(levels=tuple(levels), legend=tuple(legend.values()))


def _too_large(name: str, where: Pos, words: FileWords) -> SpecError:
    return _fail(
        where, f"the {words.noun} {name!r} is larger than {MAX_LEVEL_FILE:,} bytes", f"a file of text {words.contents}"
    )


def _text_of(data: bytes, name: str, where: Pos, words: FileWords) -> str:
    """The file's text (UTF-8, a byte-order mark dropped), or why it is not text: the line and
    column, in the file, of the first byte that says so (never the file's words)."""
    bad = data.find(b"\0")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start if bad < 0 else min(bad, exc.start)
        text = ""
    if bad >= 0:
        before = data[:bad].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
        raise _fail(
            where,
            f"{name!r} is not a text file: byte 0x{data[bad]:02x} at its line {line}, column {column} "
            "is not UTF-8 text",
            f"a text file of {words.contents} (UTF-8 or ASCII)",
        )
    return line_ends(text.removeprefix(BOM))


class StrayCharacter(Exception):
    """A line between two rows of a level, itself made mostly of the legend's characters but
    for one that is not: a mistake in the level, not a title between two levels."""

    def __init__(self, line: int, column: int, char: str):
        super().__init__(line, column, char)
        self.line, self.column, self.char = line, column, char


def split_levels(text: str, chars: set[str]) -> list[tuple[int, tuple[str, ...]]]:
    """The levels of a collection's text, each the line it starts on and its rows (trailing
    spaces dropped): a level is a run of lines made of `chars` only; a blank line, a line that
    starts with `;` (a comment, a title), or a line with any other character separates two.
    But a line between two rows with no blank line, made mostly of `chars` (a wall's row with
    a mistyped square, `#$X.#`), would cut one level in two and leave each part open:
    StrayCharacter says where it is."""
    lines = [line.rstrip(" ") for line in text.split("\n")]

    def is_row(row: str) -> bool:
        return bool(row.strip()) and not row.lstrip().startswith(";") and all(char in chars for char in row)

    levels: list[tuple[int, tuple[str, ...]]] = []
    rows: list[str] = []
    first = 0
    for number, row in enumerate(lines, start=1):
        if is_row(row):
            if not rows:
                first = number
            rows.append(row)
            continue
        if rows and number < len(lines) and is_row(lines[number]) and _mistyped_row(row, chars):
            column, char = next((i, c) for i, c in enumerate(row, start=1) if c not in chars)
            raise StrayCharacter(number, column, char)
        if rows:
            levels.append((first, tuple(rows)))
            rows = []
    if rows:
        levels.append((first, tuple(rows)))
    return levels


def _mistyped_row(row: str, chars: set[str]) -> bool:
    """Whether a line reads as a level's row with a few wrong characters: most of what is not
    a space is the legend's, and it does not start with `;`."""
    seen = [char for char in row if not char.isspace()]
    if not seen or row.lstrip().startswith(";"):
        return False
    foreign = sum(char not in chars for char in seen)
    return foreign * 4 <= len(seen)


def chosen_level(st: s.LevelFrom, number: int) -> list[s.Statement]:
    """The pictures of level `number` (from 1) of a file's levels: every square is placed at
    the statement, the file's own lines being no part of the spec's text."""
    _, rows = st.levels[number - 1]
    level = s.Level(st.pos, tuple((st.pos, row) for row in rows))
    return _pictures(level, {entry.char: entry for entry in st.legend}, fixed=True)


def _pictures(level: s.Level, legend: dict[str, s.LegendEntry], fixed: bool = False) -> list[s.Statement]:
    """`board:`, `start:` and (where the legend says a goal) `goal:` for the level's rows,
    padded to the longest with squares that have no cell (each square at its own character,
    or, `fixed`, at the row's position)."""
    width = max(len(text) for _, text in level.rows)
    has_goal = any(entry.goal is not None for entry in legend.values())
    board, start, goal = [], [], []
    for pos, text in level.rows:
        squares: list[s.LayoutItem] = []
        starts: list[s.LayoutItem] = []
        goals: list[s.LayoutItem] = []
        for k, char in enumerate(text.ljust(width, "\0")):
            at = pos if fixed else Pos(pos.line, pos.column + min(k, len(text)), 1)
            if char == "\0":
                squares.append(s.NoCells(at, 1))
                starts.append(s.NoCells(at, 1))
                goals.append(s.NoCells(at, 1))
                continue
            entry = legend.get(char)
            if entry is None:
                known = "".join(sorted(legend))
                raise _fail(
                    at, f"{char!r} is not in the legend{suggest(char, legend)}", f"one of the characters {known!r}"
                )
            wall = isinstance(entry.start, s.NoCells)
            squares.append(s.NoCells(at, 1) if wall else s.Cells(at, "_"))
            starts.append(_at(entry.start, at))
            goals.append(_at(entry.goal, at) if entry.goal is not None else s.NoCells(at, 1) if wall else s.Wild(at))
        board.append(s.Layout(pos, tuple(squares)))
        start.append(s.Layout(pos, tuple(starts)))
        goal.append(s.Layout(pos, tuple(goals)))
    pictures: list[s.Statement] = [
        s.BoardPicture(level.pos, tuple(board)),
        s.LayoutDecl(level.pos, "start", tuple(start), picture=True),
    ]
    if has_goal:
        pictures.append(s.LayoutDecl(level.pos, "goal", tuple(goal), picture=True))
    return pictures


def _at(item: s.LayoutItem, pos: Pos) -> s.LayoutItem:
    """A legend's item placed at a square of the level (a wall: one square)."""
    if isinstance(item, s.NoCells):
        return s.NoCells(pos, 1)
    return item._replace(pos=pos)


def _fail(pos: Pos, message: str, expected: str | None = None) -> SpecError:
    return SpecError([Diagnostic(pos, message, expected)])
