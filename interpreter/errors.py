"""Diagnostics for bad specs: every error names file, line and column, shows the line with a
caret and says what was expected, so that no Python traceback ever reaches a user."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .escapes import visible


@dataclass(frozen=True)
class FileSpot:
    """A line and column inside a file a spec reads a picture from (`regions from "FILE"`)."""

    file: str
    line: int
    column: int

    def said(self) -> str:
        return f"{self.file!r}, line {self.line}, column {self.column}: "


@dataclass(frozen=True, order=True)
class Pos:
    """A place in a spec: 1-based line and column, and how many characters to underline. A
    place inside a picture file is the file's name in the spec, with the spot in the file
    (`inside`) said at the head of the message, so that every consumer (terminal, editor)
    shows both."""

    line: int
    column: int
    width: int = 1
    inside: FileSpot | None = field(default=None, compare=False)

    def moved(self, columns: int, width: int = 1) -> Pos:
        """The place `columns` further along the same line (in the file, for a file's)."""
        if self.inside is not None:
            return replace(self, inside=replace(self.inside, column=self.inside.column + columns))
        return Pos(self.line, self.column + columns, width)


NOWHERE = Pos(0, 0)


@dataclass(frozen=True)
class ParameterRef:
    """A diagnostic about a parameter value given from outside the spec (-p NAME=VALUE, or an
    expectation file's params): `part` is "name" (no such parameter) or "value" (wrong kind),
    so that the caller can point at where that value was written."""

    name: str
    part: str


@dataclass(frozen=True)
class Diagnostic:
    """One problem with a spec (or with a parameter given on the command line)."""

    pos: Pos
    message: str
    expected: str | None = None
    parameter: ParameterRef | None = None
    missing: str | None = None  # says that this (e.g. "board") is missing: moot if it was refused
    absent: bool = False  # a statement the spec lacks: shown after the mistakes made where they are

    def __post_init__(self) -> None:
        spot = self.pos.inside
        if spot is not None and not self.message.startswith(spot.said()):
            object.__setattr__(self, "message", spot.said() + self.message)  # where in the file

    @property
    def order(self) -> tuple[bool, int, int]:
        return (self.absent, self.pos.line, self.pos.column)


class SpecError(Exception):
    """One or more diagnostics about one spec; raised after all of them have been collected."""

    def __init__(self, diagnostics: list[Diagnostic], source: str = "", filename: str = "<spec>"):
        self.diagnostics = sorted(diagnostics, key=lambda d: d.order)
        self.source = source
        self.filename = filename
        super().__init__(self.render())

    def with_source(self, source: str, filename: str) -> SpecError:
        return SpecError(self.diagnostics, source, filename)

    def render(self) -> str:
        lines = source_lines(self.source)
        return "\n".join(_render_one(d, lines, self.filename) for d in self.diagnostics)


def source_lines(text: str) -> list[str]:
    """A source's lines as the parser counts them: ended by a line end only (splitlines()
    also breaks at a form feed or a Unicode line separator, which a comment may hold, and
    then shows a line other than the one a position names)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def _render_one(diag: Diagnostic, lines: list[str], filename: str) -> str:
    """The diagnostic as the user reads it. The file's name, the message (which may quote the
    spec) and the echoed line go to a terminal: their control characters are escaped."""
    pos = diag.pos
    message = diag.message
    if diag.parameter is not None and diag.parameter.part == "value":
        message += f" (from -p {diag.parameter.name}=...)"
    filename, message = visible(filename), visible(message)
    if pos.line <= 0:
        out = [f"{filename}: {message}"]
    else:
        out = [f"{filename}:{pos.line}:{pos.column}: {message}"]
        if pos.line <= len(lines):
            out.extend(_source_line(lines[pos.line - 1], pos))
    if diag.expected:
        out.append(f"  expected {visible(diag.expected)}")
    return "\n".join(out)


def _source_line(line: str, pos: Pos) -> list[str]:
    """The line (around the column, if long) and a caret under the mistake, each escaped
    character counted at the width it is shown with."""
    text, column = _window(line.expandtabs(1), pos.column)
    width = max(1, min(pos.width, len(text) - column + 1))
    before, marked = visible(text[: column - 1]), visible(text[column - 1 : column - 1 + width])
    gutter = f"{pos.line:>4} | "
    return [gutter + visible(text), " " * (len(gutter) - 2) + "| " + " " * len(before) + "^" * max(1, len(marked))]


def _window(text: str, column: int, width: int = 100) -> tuple[str, int]:
    """A very long line is cut to the part around the column (marked with ...)."""
    if len(text) <= width:
        return text, column
    start = max(0, min(column - 1 - width // 2, len(text) - width))
    part = text[start : start + width]
    prefix = "..." if start > 0 else ""
    suffix = "..." if start + width < len(text) else ""
    return prefix + part + suffix, column - start + len(prefix)


class Collector:
    """Gathers diagnostics so that one pass reports every problem it can find, and only once:
    when a declaration is refused (a board too large, a group that cannot be built), the
    complaints that it is missing, made by whatever needed it, are dropped, so that one
    mistake gives one message at the mistake."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.refused: set[str] = set()

    def refuse(self, what: str) -> None:
        """`what` was declared but could not be built: its absence is not a further mistake."""
        self.refused.add(what)

    def missing(self, what: str, pos: Pos, message: str, expected: str | None = None) -> None:
        """An error that exists only because `what` is missing."""
        self.add(Diagnostic(pos, message, expected, missing=what))

    def absent(self, message: str, expected: str | None = None) -> None:
        """A statement the spec lacks (`the spec has no goal`): it has no position of its own."""
        self.add(Diagnostic(Pos(1, 1), message, expected, absent=True))

    def add(self, diag: Diagnostic) -> None:
        if diag not in self.diagnostics:
            self.diagnostics.append(diag)

    def error(self, pos: Pos, message: str, expected: str | None = None, parameter: ParameterRef | None = None) -> None:
        diag = Diagnostic(pos, message, expected, parameter)
        if diag not in self.diagnostics:
            self.diagnostics.append(diag)

    def __bool__(self) -> bool:
        return bool(self.diagnostics)

    def raise_if_any(self) -> None:
        if self.diagnostics:
            raise SpecError(self.reported())

    def reported(self) -> list[Diagnostic]:
        """The diagnostics worth showing: none that only repeat a refusal, and one message for
        a mistake made several times (an undeclared piece used on five lines is one mistake)."""
        kept = [d for d in self.diagnostics if d.missing is None or d.missing not in self.refused]
        return _merge_repeats(kept or self.diagnostics)


def _merge_repeats(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    first: dict[tuple[str, str | None], int] = {}
    also: dict[int, list[int]] = {}
    out: list[Diagnostic] = []
    for diag in sorted(diagnostics, key=lambda d: d.order):
        key = (diag.message, diag.expected)
        if key in first and diag.pos.line > 0:
            lines = also.setdefault(first[key], [])
            if diag.pos.line not in lines and diag.pos.line != out[first[key]].pos.line:
                lines.append(diag.pos.line)
            continue
        first[key] = len(out)
        out.append(diag)
    for i, lines in also.items():
        if lines:
            shown = ", ".join(str(n) for n in lines[:8]) + (", ..." if len(lines) > 8 else "")
            word = "line" if len(lines) == 1 else "lines"
            out[i] = replace(out[i], message=f"{out[i].message} (also on {word} {shown})")
    return out


NEARLY = 0.02  # matches this close to the best are told apart by their length


def suggest(name: str, known: Iterable[str]) -> str:
    """' (did you mean 'X'?)' when a known name is close to a misspelt one, else '' (never the
    name itself: known somewhere else, it is still not what fits here). difflib is imported
    here: only a mistake needs it, and every run imports this module."""
    from difflib import SequenceMatcher, get_close_matches

    close = get_close_matches(name, [k for k in known if k != name], n=3, cutoff=0.7)
    if not close:
        return ""
    best = SequenceMatcher(None, name, close[0]).ratio()
    nearly = [k for k in close if SequenceMatcher(None, name, k).ratio() >= best - NEARLY]
    chosen = min(nearly, key=lambda k: abs(len(k) - len(name)))  # 'everybody': everyone, not every
    return f" (did you mean '{chosen}'?)"


SUGGESTED = re.compile(r" \(did you mean '([^'\n]+)'\?\)")


def suggested(message: str) -> str | None:
    """The name a message's `suggest` offers (an editor offers it as a quick fix), if any."""
    found = SUGGESTED.search(message)
    return found.group(1) if found else None
