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
comment and separators."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import Diagnostic, Pos, SpecError, suggest
from . import syntax as s

LEVEL_LINE = re.compile(r"^([ \t]*)level[ \t]*:[ \t]*(#.*)?$")


def quote_levels(text: str) -> str:
    """Each row of a `level:` block (the lines after it indented further, up to a blank or
    less indented line) put between double quotes, in place: the quote takes the column of
    the indentation's last space, so every character keeps its line and column."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        found = LEVEL_LINE.match(lines[i])
        i += 1
        if found is None:
            continue
        outer = len(found.group(1).expandtabs(8))
        block = i
        while block < len(lines) and lines[block].strip() and _indent(lines[block]) > outer:
            block += 1
        rows = range(i, block)
        if rows and all('"' not in lines[r] and "\t" not in lines[r] for r in rows):
            inner = min(_indent(lines[r]) for r in rows)
            for r in rows:
                row = lines[r]
                lines[r] = row[: inner - 1] + '"' + row[inner:] + '"'
        i = block
    return "\n".join(lines)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def expand_levels(statements: Sequence[s.Statement]) -> tuple[s.Statement, ...]:
    """The statements with every `level:` replaced by the pictures it stands for."""
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
    return _replaced(statements, legend)


def _has_level(statements: Sequence[s.Statement]) -> bool:
    return any(
        isinstance(st, s.Level) or (isinstance(st, s.If) and (_has_level(st.then) or _has_level(st.otherwise)))
        for st in statements
    )


def _first_level(statements: Sequence[s.Statement]) -> s.Level:
    for st in statements:
        if isinstance(st, s.Level):
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


def _replaced(statements: Sequence[s.Statement], legend: dict[str, s.LegendEntry]) -> tuple[s.Statement, ...]:
    out: list[s.Statement] = []
    for st in statements:
        if isinstance(st, s.Level):
            out.extend(_pictures(st, legend))
        elif isinstance(st, s.If):
            out.append(st._replace(then=_replaced(st.then, legend), otherwise=_replaced(st.otherwise, legend)))
        elif not isinstance(st, s.Legend):
            out.append(st)
    return tuple(out)


def _pictures(level: s.Level, legend: dict[str, s.LegendEntry]) -> list[s.Statement]:
    """`board:`, `start:` and (where the legend says a goal) `goal:` for the level's rows,
    padded to the longest with squares that have no cell."""
    width = max(len(text) for _, text in level.rows)
    has_goal = any(entry.goal is not None for entry in legend.values())
    board, start, goal = [], [], []
    for pos, text in level.rows:
        squares: list[s.LayoutItem] = []
        starts: list[s.LayoutItem] = []
        goals: list[s.LayoutItem] = []
        for k, char in enumerate(text.ljust(width, "\0")):
            at = Pos(pos.line, pos.column + min(k, len(text)), 1)
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
