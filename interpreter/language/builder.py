"""Parse tree -> syntax model: one small Transformer method per grammar rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token, Transformer, Tree, v_args
from lark.tree import Meta

from ..errors import Diagnostic, Pos, SpecError
from . import syntax as s


def pos_of(item: Any) -> Pos:
    """The position of a token, a tree's meta, or a model node."""
    if isinstance(item, Token):
        return Pos(item.line or 1, item.column or 1, max(1, len(str(item))))
    if isinstance(item, Meta):
        if getattr(item, "empty", True):
            return Pos(1, 1)
        width = item.end_column - item.column if item.end_line == item.line else 1
        return Pos(item.line, item.column, max(1, width))
    if isinstance(item, Tree):
        return pos_of(item.meta)
    return item.pos  # type: ignore[no-any-return]


@dataclass(frozen=True)
class _Else:
    statements: tuple[s.Statement, ...]


def _text(token: Token) -> str:
    return str(token)[1:-1] if token.type == "STRING" else str(token)


@v_args(meta=True)
class SyntaxBuilder(Transformer[Token, list[s.Statement]]):
    """Each method receives the rule's meta (position) and its already-built children."""

    def start(self, meta: Meta, children: list[Any]) -> list[s.Statement]:
        return list(children)

    # ---- identity and parameters
    def puzzle_stmt(self, meta: Meta, c: list[Any]) -> s.PuzzleTitle:
        return s.PuzzleTitle(pos_of(meta), _text(c[0]))

    def about_stmt(self, meta: Meta, c: list[Any]) -> s.About:
        return s.About(pos_of(meta), _text(c[0]))

    def param_stmt(self, meta: Meta, c: list[Any]) -> s.Param:
        doc = _text(c[2]) if len(c) > 2 else ""
        return s.Param(pos_of(c[0]), str(c[0]), c[1], doc)

    def require_stmt(self, meta: Meta, c: list[Any]) -> s.Require:
        return s.Require(pos_of(c[0]), c[0], _text(c[1]) if len(c) > 1 else None)

    # ---- board
    def line_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "line", (c[0],))

    def grid_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "grid", (c[0], c[1]))

    def ring_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "ring", (c[0],))

    def places_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "places", (), tuple(n.name for n in c[0]))

    def name_list(self, meta: Meta, c: list[Token]) -> tuple[s.Name, ...]:
        return tuple(s.Name(pos_of(t), str(t)) for t in c)

    def direction_stmt(self, meta: Meta, c: list[Any]) -> s.Direction:
        return s.Direction(pos_of(c[0]), str(c[0]), tuple(c[1:]))

    def step_vector(self, meta: Meta, c: list[Any]) -> s.Vector:
        return s.Vector(pos_of(meta), False, c[0], c[1])

    def named_vector(self, meta: Meta, c: list[Any]) -> s.Vector:
        if str(c[0]) != "leap":
            raise SpecError(
                [Diagnostic(pos_of(c[0]), f"unknown kind of step '{c[0]}'", "(row step, column step) or leap(a, b)")]
            )
        return s.Vector(pos_of(meta), True, c[1], c[2])

    def route_both(self, meta: Meta, c: list[Token]) -> s.Route:
        return s.Route(pos_of(meta), str(c[0]), str(c[1]), True)

    def route_one(self, meta: Meta, c: list[Token]) -> s.Route:
        return s.Route(pos_of(meta), str(c[0]), str(c[1]), False)

    def carrier_stmt(self, meta: Meta, c: list[Any]) -> s.Carrier:
        return s.Carrier(pos_of(c[0]), str(c[0]), str(c[1]))

    def cursor_stmt(self, meta: Meta, c: list[Any]) -> s.Cursor:
        return s.Cursor(pos_of(meta), c[0])

    # ---- pieces
    def piece_stmt(self, meta: Meta, c: list[Any]) -> s.PieceDecl:
        symbol = c[0]
        kind = description = per = drawn = None
        for item in c[1:]:
            if isinstance(item, Token) and item.type == "NAME":
                kind = str(item)
            elif isinstance(item, Token) and item.type == "STRING":
                description = _text(item)
            elif isinstance(item, tuple) and item[0] == "per":
                per = item[1]
            elif isinstance(item, tuple) and item[0] == "drawn":
                drawn = item[1]
        return s.PieceDecl(pos_of(symbol), str(symbol), kind, description, per, drawn)

    def per_group(self, meta: Meta, c: list[Token]) -> tuple[str, str]:
        return ("per", str(c[0]))

    def drawn(self, meta: Meta, c: list[Token]) -> tuple[str, str]:
        return ("drawn", _text(c[0]))

    def pieces_stmt(self, meta: Meta, c: list[Any]) -> s.PiecesDecl:
        return s.PiecesDecl(pos_of(meta), c[0], _text(c[1]) if len(c) > 1 else None)

    def group_stmt(self, meta: Meta, c: list[Any]) -> s.GroupDecl:
        return s.GroupDecl(pos_of(c[0]), str(c[0]), c[1])

    # ---- start and goal
    def layout_kw(self, meta: Meta, c: list[Token]) -> Token:
        return c[0]

    def layout_stmt(self, meta: Meta, c: list[Any]) -> s.LayoutDecl:
        return s.LayoutDecl(pos_of(c[1]), str(c[0]), (c[1],))

    def picture_stmt(self, meta: Meta, c: list[Any]) -> s.LayoutDecl:
        return s.LayoutDecl(pos_of(c[0]), str(c[0]), tuple(c[1:]))

    def computed_layout_stmt(self, meta: Meta, c: list[Any]) -> s.ComputedLayout:
        return s.ComputedLayout(pos_of(c[1]), str(c[0]), c[1])

    def place_layout_stmt(self, meta: Meta, c: list[Any]) -> s.PlaceLayout:
        return s.PlaceLayout(pos_of(c[1]), str(c[0]), str(c[1]), c[2])

    def goal_when_stmt(self, meta: Meta, c: list[Any]) -> s.GoalWhen:
        if str(c[0]) != "goal":
            raise SpecError(
                [Diagnostic(pos_of(c[0]), "only a goal can be given as a condition", "start LAYOUT or start: PICTURE")]
            )
        return s.GoalWhen(pos_of(c[0]), c[1])

    def everyone(self, meta: Meta, c: list[Any]) -> None:
        return None

    def layout(self, meta: Meta, c: list[Any]) -> s.Layout:
        return s.Layout(pos_of(meta), tuple(c))

    def cells(self, meta: Meta, c: list[Token]) -> s.Cells:
        return s.Cells(pos_of(c[0]), str(c[0]))

    def wild(self, meta: Meta, c: list[Token]) -> s.Wild:
        return s.Wild(pos_of(c[0]))

    def variable(self, meta: Meta, c: list[Token]) -> s.Var:
        return s.Var(pos_of(c[0]), str(c[0])[1:])

    def group(self, meta: Meta, c: list[Any]) -> s.Group:
        return s.Group(pos_of(meta), tuple(c))

    def repeat(self, meta: Meta, c: list[Any]) -> s.Repeat:
        return s.Repeat(pos_of(meta), c[0], c[1])

    # ---- moves
    def move_stmt(self, meta: Meta, c: list[Any]) -> s.Move:
        return s.Move(pos_of(c[0]), str(c[0]), c[1])

    def pattern(self, meta: Meta, c: list[s.Layout]) -> tuple[s.Layout, ...]:
        return tuple(c)

    def along(self, meta: Meta, c: list[Any]) -> tuple[s.Name, ...]:
        return tuple(c[0])

    def rewrite_rule(self, meta: Meta, c: list[Any]) -> s.Rewrite:
        along = c[2] if len(c) > 2 else None
        return s.Rewrite(pos_of(meta), c[0], c[1], along)

    def carry_rule(self, meta: Meta, c: list[Any]) -> s.Carry:
        with_ = tuple(v for k, v in c[2:] if k == "with")
        only = tuple(v for k, v in c[2:] if k == "only")
        return s.Carry(pos_of(meta), c[0], str(c[1]), with_, only)

    def carry_with(self, meta: Meta, c: list[Token]) -> tuple[str, str]:
        return ("with", str(c[0]))

    def carry_only(self, meta: Meta, c: list[Token]) -> tuple[str, str]:
        return ("only", str(c[0]))

    def action_rule(self, meta: Meta, c: list[Any]) -> s.Actions:
        guard = c[-1] if c and not isinstance(c[-1], s.Action) else None
        actions = tuple(a for a in c if isinstance(a, s.Action))
        return s.Actions(pos_of(meta), actions, guard)

    def take_action(self, meta: Meta, c: list[Token]) -> s.Action:
        return s.Action(pos_of(meta), "take", (str(c[0])[1:], str(c[1])))

    def put_action(self, meta: Meta, c: list[Token]) -> s.Action:
        return s.Action(pos_of(meta), "put", (str(c[0])[1:], str(c[1])))

    def advance_action(self, meta: Meta, c: list[Any]) -> s.Action:
        return s.Action(pos_of(meta), "advance", (str(c[0]), c[1], str(c[2])))

    def guard(self, meta: Meta, c: list[Any]) -> s.Expr:
        return c[0]  # type: ignore[no-any-return]

    # ---- constraints, search and presentation
    def safe_stmt(self, meta: Meta, c: list[Any]) -> s.Safe:
        return s.Safe(pos_of(meta), c[0], (c[1],))

    def safe_block(self, meta: Meta, c: list[Any]) -> s.Safe:
        return s.Safe(pos_of(meta), c[0], tuple(c[1:]))

    def everywhere(self, meta: Meta, c: list[Any]) -> str:
        return "everywhere"

    def in_places(self, meta: Meta, c: list[Any]) -> str:
        return "places"

    def in_loads(self, meta: Meta, c: list[Any]) -> str:
        return "loads"

    def on_board(self, meta: Meta, c: list[Any]) -> str:
        return "board"

    def symmetry_stmt(self, meta: Meta, c: list[Any]) -> s.SymmetryDecl:
        return s.SymmetryDecl(pos_of(meta), tuple(c))

    def symmetry(self, meta: Meta, c: list[Any]) -> s.Symmetry:
        return s.Symmetry(pos_of(meta), tuple(c))

    def symmetry_part(self, meta: Meta, c: list[Token]) -> tuple[s.Name, ...]:
        return tuple(s.Name(pos_of(t), str(t)) for t in c)

    def search_stmt(self, meta: Meta, c: list[Token]) -> s.Directive:
        return s.Directive(pos_of(meta), "search", (s.Name(pos_of(c[0]), str(c[0])),))

    def show_stmt(self, meta: Meta, c: list[Token]) -> s.Directive:
        return s.Directive(pos_of(meta), "show", (s.Name(pos_of(c[0]), str(c[0])),))

    def heuristic_stmt(self, meta: Meta, c: list[Any]) -> s.Heuristic:
        return s.Heuristic(pos_of(meta), c[0])

    # ---- if
    def if_stmt(self, meta: Meta, c: list[Any]) -> s.If:
        otherwise: tuple[s.Statement, ...] = ()
        body = c[1:]
        if body and isinstance(body[-1], _Else):
            otherwise = body[-1].statements
            body = body[:-1]
        return s.If(pos_of(meta), c[0], tuple(body), otherwise)

    def else_block(self, meta: Meta, c: list[Any]) -> _Else:
        return _Else(tuple(c))

    def else_if(self, meta: Meta, c: list[Any]) -> _Else:
        return _Else((c[0],))

    # ---- expressions
    def quant(self, meta: Meta, c: list[Token]) -> Token:
        return c[0]

    def quantified(self, meta: Meta, c: list[Any]) -> s.Quantified:
        quant, kind, rest = c[0], c[1], c[2:]
        var = str(rest.pop(0)) if rest and isinstance(rest[0], Token) else None
        location = rest.pop(0) if rest and isinstance(rest[0], s.Location) else None
        return s.Quantified(pos_of(quant), str(quant), str(kind), var, location, rest[0])

    def counted(self, meta: Meta, c: list[Any]) -> s.Quantified:
        return s.Quantified(pos_of(meta), str(c[0]), str(c[1]), None, c[2], None)

    def count(self, meta: Meta, c: list[Any]) -> s.Count:
        return s.Count(pos_of(meta), str(c[0]), c[1] if len(c) > 1 else None)

    def here(self, meta: Meta, c: list[Any]) -> s.Location:
        return s.Location(pos_of(meta), None)

    def at_place(self, meta: Meta, c: list[Token]) -> s.Location:
        return s.Location(pos_of(meta), str(c[0]))

    def _binary(self, op: str, meta: Meta, c: list[Any]) -> s.Binary:
        return s.Binary(pos_of(meta), op, c[0], c[-1])

    def or_(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary("or", meta, c)

    def and_(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary("and", meta, c)

    def not_(self, meta: Meta, c: list[Any]) -> s.Unary:
        return s.Unary(pos_of(meta), "not", c[0])

    def compare(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary(str(c[1]), meta, c)

    def member(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary("in", meta, c)

    def is_empty(self, meta: Meta, c: list[Any]) -> s.IsEmpty:
        return s.IsEmpty(pos_of(meta), c[0])

    def located(self, meta: Meta, c: list[Any]) -> s.Located:
        return s.Located(pos_of(meta), c[0], c[1])

    def range(self, meta: Meta, c: list[Any]) -> s.Range:
        return s.Range(pos_of(meta), c[0], c[1])

    def add(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary("+", meta, c)

    def sub(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary("-", meta, c)

    def mul(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary("*", meta, c)

    def div(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary("/", meta, c)

    def mod(self, meta: Meta, c: list[Any]) -> s.Binary:
        return self._binary("%", meta, c)

    def neg(self, meta: Meta, c: list[Any]) -> s.Unary:
        return s.Unary(pos_of(meta), "-", c[0])

    def number(self, meta: Meta, c: list[Token]) -> s.Num:
        return s.Num(pos_of(c[0]), int(c[0]))

    def string(self, meta: Meta, c: list[Token]) -> s.Str:
        return s.Str(pos_of(c[0]), _text(c[0]))

    def true(self, meta: Meta, c: list[Any]) -> s.Bool:
        return s.Bool(pos_of(meta), True)

    def false(self, meta: Meta, c: list[Any]) -> s.Bool:
        return s.Bool(pos_of(meta), False)

    def name(self, meta: Meta, c: list[Token]) -> s.Name:
        return s.Name(pos_of(c[0]), str(c[0]))

    def call(self, meta: Meta, c: list[Any]) -> s.Call:
        return s.Call(pos_of(c[0]), str(c[0]), tuple(c[1:]))

    def attribute(self, meta: Meta, c: list[Any]) -> s.Attr:
        return s.Attr(pos_of(meta), c[0], str(c[1]))
