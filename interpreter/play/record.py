"""Solution files: the moves of a game, one per line as `run` prints them (`jump ○ 3 → 1`),
written by `puzint play` and checked by `puzint run SPEC --replay FILE`.

Plain text, so that a person can write one by hand or paste one from a book: `#` starts a
comment, blank lines do not count, spaces do not matter, and `->` or a piece's symbol may be
written for `→` and its glyph (the `--ascii` drawing). Each line must name exactly one legal
move of the state it is played in: a move that is not legal there is refused at its line,
with the safety rule that forbids it where one does, and the moves that could be made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..compiler import CompiledPuzzle
from ..errors import Diagnostic, Pos, SpecError
from ..files import write_file
from ..render import data
from ..search import Limits
from ..search.limits import LimitReached, stop_reason
from ..sources import line_ends, read_source
from .session import Option, options, refusals

SHOWN_CHOICES = 8  # the legal moves listed under a line that names none of them
SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Replayed:
    """The moves a file names, in order, from the start."""

    moves: list[Option]

    @property
    def path(self) -> list[tuple[int, bytes]]:
        return [(move.number, move.after) for move in self.moves]

    def final(self, compiled: CompiledPuzzle) -> bytes:
        """The state the moves end in."""
        return self.moves[-1].after if self.moves else compiled.start


def solution_text(compiled: CompiledPuzzle, played: list[Option], command: str) -> str:
    """A solution file: a comment that says what it is and how to check it, then the moves."""
    title = compiled.puzzle.title
    params = " ".join(f"{k}={data._plain(v)}" for k, v in compiled.puzzle.shown_params.items())
    head = [
        f"# {title}{'  ' + params if params else ''}: {len(played)} move{'s' if len(played) != 1 else ''}",
        f"# check it: {command}",
    ]
    return "\n".join([*head, *(move.words for move in played)]) + "\n"


def write_solution(path: Path, compiled: CompiledPuzzle, played: list[Option], command: str) -> None:
    """The solution file written at `path` (`files.write_file`): a link or a directory at its
    name is refused, as is any write that fails, with a CannotWrite that says why."""
    write_file(path, solution_text(compiled, played, command))


class ReplayStopped(LimitReached):
    """A limit (or Ctrl-C) stopped the check of a solution file: why, and how far it came
    (the line it was at, the moves checked before it, the legal moves looked through)."""

    def __init__(self, reason: str, filename: str, line: int, checked: int, listed: int):
        super().__init__(reason)
        self.filename, self.line, self.checked, self.listed = filename, line, checked, listed

    def explored(self) -> str:
        moves = f"{self.checked} move{'s' if self.checked != 1 else ''}"
        return f"{moves} checked, {self.listed:,} legal move{'s' if self.listed != 1 else ''} looked through"


def read_solution(compiled: CompiledPuzzle, path: str | Path, limits: Limits | None = None) -> Replayed:
    """The moves of a solution file, each checked against the state it is played in."""
    return replay(compiled, read_source(path, "solution file"), str(path), limits)


def replay(compiled: CompiledPuzzle, text: str, filename: str = "<solution>", limits: Limits | None = None) -> Replayed:
    """The moves a solution file names, each found among the legal moves of the state it is
    played in (a state may have tens of thousands: a filling's counter of 60,001 values).
    Under `limits`: the legal moves listed count as states generated, and a limit, the timer
    of `Limits.armed` or Ctrl-C stops the check with a ReplayStopped that says how far it
    came (without limits, a Ctrl-C is the caller's KeyboardInterrupt)."""
    source = line_ends(text)
    listed = [0]
    played: list[Option] = []
    number = 0
    try:
        for number, line in enumerate(source.split("\n"), 1):
            _replay_line(compiled, source, filename, number, line, played, limits, listed)
    except (LimitReached, KeyboardInterrupt) as exc:
        if limits is None:  # a caller's own Ctrl-C (the API's): theirs to handle
            raise
        raise ReplayStopped(stop_reason(exc), filename, number, len(played), listed[0]) from None
    return Replayed(played)


def _replay_line(
    compiled: CompiledPuzzle,
    source: str,
    filename: str,
    number: int,
    line: str,
    played: list[Option],
    limits: Limits | None,
    listed: list[int],
) -> None:
    """The move a line names (if it names one), found and played."""
    words = line.split("#", 1)[0].strip()
    if not words:
        return
    state = played[-1].after if played else compiled.start
    at = Pos(number, len(line) - len(line.lstrip()) + 1, max(1, len(words)))
    here = options(compiled, state, limits, listed)
    chosen = [o for o in here if _key(words) in (_key(o.words), _key(o.ascii_words))]
    if not chosen:
        places = {p.name for p in compiled.puzzle.places}
        chosen = [o for o in here if _without_a_place(words, o.words, places)]
    if len({o.after for o in chosen}) > 1:
        raise SpecError(
            [Diagnostic(at, f"'{words}' names {len(chosen)} different moves here", _listed(chosen))],
            source,
            filename,
        )
    if not chosen:
        raise SpecError([_not_legal(compiled, state, words, at, here, len(played))], source, filename)
    played.append(chosen[0])


def _without_a_place(written: str, label: str, places: set[str]) -> bool:
    """Whether the line is the move's words with the place it leaves left out: a crossing of
    one piece is shown with where it starts (`row C east → west`), a load's without (`row C C →
    west`), and `row C -> west` names the first as well."""
    said, words = written.replace("->", "→").split(), label.split()
    return len(words) == len(said) + 1 and any(
        words[i] in places and words[:i] + words[i + 1 :] == said for i in range(1, len(words))
    )


def _key(words: str) -> str:
    """A move's words as compared: without spaces, `->` read as `→`."""
    return SPACES.sub("", words).replace("->", "→")


def _not_legal(
    compiled: CompiledPuzzle, state: bytes, words: str, at: Pos, here: list[Option], played: int
) -> Diagnostic:
    after = f"after move {played}" if played else "at the start"
    for refused in refusals(compiled, state):
        if _key(words) == _key(refused.words):
            where = f" at {refused.where}" if refused.where and refused.where != "the state" else ""
            message = f"'{words}' is forbidden {after}: the rule '{refused.rule}' (line {refused.line}) fails{where}"
            return Diagnostic(at, message, _listed(here))
    if not here:
        return Diagnostic(at, f"'{words}': no move can be made {after} ({data.board_text(compiled, state)})")
    return Diagnostic(at, f"'{words}' is not a legal move {after}", _listed(here))


def _listed(moves: list[Option]) -> str:
    if not moves:
        return "no move: none can be made here"
    shown = [o.words for o in moves[:SHOWN_CHOICES]]
    more = f" (and {len(moves) - SHOWN_CHOICES} more)" if len(moves) > SHOWN_CHOICES else ""
    return "one of: " + ", ".join(shown) + more
