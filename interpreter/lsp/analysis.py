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

An analysis runs in a worker process (worker.py), which stops it at its time limit by raising
OutOfTime into it: what was found by then (the names, if the spec parsed) is kept, and
`stopped` says which stage the limit cut short.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..compiler import compile_puzzle
from ..errors import Diagnostic, SpecError
from ..language import syntax as s
from ..language.elaborate import elaborate
from ..language.parser import parse
from ..sources import read_text
from .declarations import Declaration, board_directions, declarations

SALVAGE_TRIES = 8  # lines blanked at most to parse a spec with mistakes
SALVAGE_UP_TO = 100_000  # characters: a longer spec is not parsed again and again


class OutOfTime(BaseException):
    """Raised into an analysis by its worker when its time is up. A BaseException, as
    KeyboardInterrupt is: an `except Exception` in the compiler must not swallow it."""


@dataclass(frozen=True)
class Analysis:
    problems: tuple[Diagnostic, ...]
    declarations: tuple[Declaration, ...] = ()
    defaults: dict[str, str] = field(default_factory=dict)  # each parameter's default, as written on -p
    stopped: str | None = None  # the stage the time limit cut short ("compiling"), if it did
    directions: tuple[str, ...] = ()  # the board's own directions (`right`, `left` ...), which no line declares


@dataclass
class _Progress:
    """What an analysis has found so far: what is left when its time is up."""

    stage: str = "reading"
    found: tuple[Declaration, ...] = ()
    defaults: dict[str, str] = field(default_factory=dict)
    directions: tuple[str, ...] = ()


def analyse(text: str, filename: str, named: Callable[[Analysis], None] | None = None) -> Analysis:
    """The diagnostics of the first stage that fails (none if the spec compiles), and the names
    the spec declares; `named` is told the names as soon as they are known, before the compile
    (the slow stage), so that hover and completion need not wait for it."""
    progress = _Progress()
    try:
        return _analysed(text, filename, named, progress)
    except OutOfTime:
        return Analysis((), progress.found, progress.defaults, progress.stage, progress.directions)


def _analysed(text: str, filename: str, named: Callable[[Analysis], None] | None, progress: _Progress) -> Analysis:
    try:
        source = read_text(text, filename)
    except SpecError as exc:
        return Analysis(tuple(exc.diagnostics))
    progress.stage = "parsing"
    try:
        spec = parse(source, filename)
    except SpecError as exc:
        salvaged = _salvaged(source, filename, exc)
        if salvaged is None:
            return Analysis(tuple(exc.diagnostics))
        return Analysis(tuple(exc.diagnostics), declarations(salvaged), directions=board_directions(salvaged))
    progress.found, progress.directions = declarations(spec), board_directions(spec)
    progress.stage = "elaborating"
    try:
        puzzle = elaborate(spec, {})
    except SpecError as exc:
        return Analysis(tuple(exc.diagnostics), progress.found, directions=progress.directions)
    progress.defaults = {name: _shown(value) for name, value in puzzle.params.items()}
    if named is not None:
        named(Analysis((), progress.found, progress.defaults, directions=progress.directions))
    progress.stage = "compiling"
    try:
        compile_puzzle(puzzle)
    except SpecError as exc:
        return Analysis(tuple(exc.diagnostics), progress.found, progress.defaults, directions=progress.directions)
    return Analysis((), progress.found, progress.defaults, directions=progress.directions)


def _salvaged(source: str, filename: str, error: SpecError) -> s.Spec | None:
    """The spec, its mistakes cut off (None if cutting a few lines does not make it parse)."""
    if len(source) > SALVAGE_UP_TO:
        return None
    lines = source.split("\n")
    for _ in range(SALVAGE_TRIES):
        pos = error.diagnostics[0].pos if error.diagnostics else None
        if pos is None or not 1 <= pos.line <= len(lines) or not lines[pos.line - 1].strip():
            return None
        written = lines[pos.line - 1]
        cut = written[: pos.column - 1].rstrip()
        lines[pos.line - 1] = cut if cut.strip() and cut != written.rstrip() else ""
        try:
            return parse("\n".join(lines), filename)
        except SpecError as again:
            error = again
    return None


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
