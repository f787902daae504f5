"""The names a spec declares, found in its syntax model (never by searching its text): each
with where its name is written, so that hover can show the declaration and go-to-definition
can jump to it.

Both branches of an `if` are read: the editor shows the whole spec, not the variant that the
default parameters choose, and a name declared in two branches has two definitions.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..errors import Pos
from ..language import syntax as s
from ..model import board as boards


class Declaration(NamedTuple):
    name: str
    kind: str  # what the name is, in the language's words: "parameter", "piece", "place", ...
    pos: Pos  # where the name is written in its declaration
    statement: s.Statement


def declarations(spec: s.Spec) -> tuple[Declaration, ...]:
    """Every name the spec declares, in the order written."""
    return tuple(found for statement in _every_statement(spec.statements) for found in _declared_by(statement))


def board_directions(spec: s.Spec) -> tuple[str, ...]:
    """The directions the spec's board has without declaring them (`right` and `left` on a
    line ...), the first board's: the same names the elaborator gives it, from a board of one
    cell of that kind."""
    for statement in _every_statement(spec.statements):
        if isinstance(statement, (s.BoardPicture, s.Level, s.LevelFrom)):
            return tuple(boards.grid(1, 1).directions)
        if isinstance(statement, s.Board) and statement.shape in BOARDS:
            return tuple(BOARDS[statement.shape]().directions)
    return ()


# A board of one cell of each kind a `board` statement names, for its directions' names.
BOARDS = {
    "line": lambda: boards.line(1),
    "ring": lambda: boards.ring(1),
    "grid": lambda: boards.grid(1, 1),
    "graph": lambda: boards.graph(["a"], []),
}


def _every_statement(statements: Iterable[s.Statement]) -> Iterator[s.Statement]:
    for statement in statements:
        yield statement
        if isinstance(statement, s.If):
            yield from _every_statement(statement.then)
            yield from _every_statement(statement.otherwise)


def _declared_by(statement: s.Statement) -> Iterator[Declaration]:
    """The names one statement declares (none for most statements)."""
    if isinstance(statement, s.Param):
        yield Declaration(statement.name, "parameter", statement.pos, statement)
    elif isinstance(statement, s.PieceDecl):
        yield Declaration(statement.symbol, "piece", statement.pos, statement)
        if statement.kind is not None and statement.kind_pos is not None:
            yield Declaration(statement.kind, "kind of piece", statement.kind_pos, statement)
    elif isinstance(statement, s.Board) and statement.shape in ("places", "graph"):
        kind = "place" if statement.shape == "places" else "cell"
        yield from (Declaration(name.name, kind, name.pos, statement) for name in statement.names)
    elif isinstance(statement, s.PlacesDecl):
        kind = "stack" if statement.stack else "place"
        yield from (Declaration(name.name, kind, name.pos, statement) for name in statement.names)
    elif isinstance(statement, s.ShapeDecl):
        yield Declaration(statement.name, "neighbourhood" if statement.cut else "shape", statement.pos, statement)
    elif isinstance(statement, (s.GroupDecl, s.Direction, s.CounterDecl, s.Carrier, s.Move)):
        yield Declaration(statement.name, ONE_NAME[type(statement)], statement.pos, statement)


# Statements that declare one name, written where the statement's position is, and what it is.
ONE_NAME: dict[type, str] = {
    s.GroupDecl: "group",
    s.Direction: "direction",
    s.CounterDecl: "counter",
    s.Carrier: "carrier",
    s.Move: "move",
}
