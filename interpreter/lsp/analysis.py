"""A document read as `puzint run` reads a spec, up to the search and no further: bounded as a
file is (sources.read_text: 1 MB, lines of 10,000 characters), parsed, elaborated with the
default parameters and compiled, the first stage that fails giving the diagnostics. Compiling
runs only on a spec that elaborates (it is the slow stage on a large board), and nothing ever
searches: a keystroke must not start a search of millions of states.

It also finds what the spec declares, for hover, definition and completion. A spec being typed
often does not parse; then the line the parser stumbles on is cut where it stumbles (`piece W
white sideways` still declares W), or blanked if that does not help, a few lines at most, and
the rest is parsed again (the line numbers kept), so that the names can still be shown and
completed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..compiler import compile_puzzle
from ..errors import Diagnostic, SpecError
from ..language.elaborate import elaborate
from ..language.parser import parse
from ..sources import read_text
from .declarations import Declaration, declarations

SALVAGE_TRIES = 8  # lines blanked at most to parse a spec with mistakes
SALVAGE_UP_TO = 100_000  # characters: a longer spec is not parsed again and again


@dataclass(frozen=True)
class Analysis:
    problems: tuple[Diagnostic, ...]
    declarations: tuple[Declaration, ...] = ()
    defaults: dict[str, str] = field(default_factory=dict)  # each parameter's default, as written on -p


def analyse(text: str, filename: str) -> Analysis:
    """The diagnostics of the first stage that fails (none if the spec compiles), and the names
    the spec declares."""
    try:
        source = read_text(text, filename)
    except SpecError as exc:
        return Analysis(tuple(exc.diagnostics))
    try:
        spec = parse(source, filename)
    except SpecError as exc:
        return Analysis(tuple(exc.diagnostics), _salvaged(source, filename, exc))
    found = declarations(spec)
    try:
        puzzle = elaborate(spec, {})
    except SpecError as exc:
        return Analysis(tuple(exc.diagnostics), found)
    defaults = {name: _shown(value) for name, value in puzzle.params.items()}
    try:
        compile_puzzle(puzzle)
    except SpecError as exc:
        return Analysis(tuple(exc.diagnostics), found, defaults)
    return Analysis((), found, defaults)


def _salvaged(source: str, filename: str, error: SpecError) -> tuple[Declaration, ...]:
    """What the spec declares, its mistakes cut off (nothing if cutting a few lines does not make
    it parse)."""
    if len(source) > SALVAGE_UP_TO:
        return ()
    lines = source.split("\n")
    for _ in range(SALVAGE_TRIES):
        pos = error.diagnostics[0].pos if error.diagnostics else None
        if pos is None or not 1 <= pos.line <= len(lines) or not lines[pos.line - 1].strip():
            return ()
        written = lines[pos.line - 1]
        cut = written[: pos.column - 1].rstrip()
        lines[pos.line - 1] = cut if cut.strip() and cut != written.rstrip() else ""
        try:
            return declarations(parse("\n".join(lines), filename))
        except SpecError as again:
            error = again
    return ()


def _shown(value: object) -> str:
    """A parameter's value as a spec writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, range):
        return f"{value.start}..{value.stop - 1}"
    if isinstance(value, tuple):
        return "[" + ", ".join(str(item) for item in value) + "]"
    return str(value)
