"""Parse tree -> syntax model: one small Transformer method per grammar rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token, Transformer, Tree, v_args
from lark.tree import Meta

from ..errors import Diagnostic, Pos, SpecError
from . import syntax as s
from .expressions import MAX_DIGITS


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


@dataclass(frozen=True)
class _ActionForm:
    """A move whose first part is an action (no rewrite, slide or carry before it)."""

    action: s.Action


@dataclass(frozen=True)
class _Clause:
    kind: str  # guard, cost, more_direction, until
    value: Any
    pos: Pos


def _text(token: Token) -> str:
    return str(token)[1:-1] if token.type == "STRING" else str(token)


def _name(token: Token) -> s.Name:
    return s.Name(pos_of(token), str(token))


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
        choices = next((x for x in c[2:] if isinstance(x, tuple)), ())
        docs = [x for x in c[2:] if not isinstance(x, tuple)]
        doc = _text(docs[0]) if docs else ""
        return s.Param(pos_of(c[0]), str(c[0]), c[1], doc, choices)

    def choices(self, meta: Meta, c: list[Any]) -> tuple[s.Expr, ...]:
        return tuple(c)

    def require_stmt(self, meta: Meta, c: list[Any]) -> s.Require:
        return s.Require(pos_of(c[0]), c[0], _text(c[1]) if len(c) > 1 else None)

    # ---- boards, places, counters
    def line_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "line", (c[0],))

    def grid_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "grid", (c[0], c[1]), where=c[2] if len(c) > 2 else None)

    def ring_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "ring", (c[0],))

    def places_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "places", (), c[0])

    def graph_board(self, meta: Meta, c: list[Any]) -> s.Board:
        return s.Board(pos_of(meta), "graph", (), tuple(c))

    def board_picture(self, meta: Meta, c: list[Any]) -> s.BoardPicture:
        return s.BoardPicture(pos_of(meta), tuple(c))

    def bags(self, meta: Meta, c: list[Any]) -> s.PlacesDecl:
        return s.PlacesDecl(pos_of(meta), c[0], False)

    def stacks(self, meta: Meta, c: list[Any]) -> s.PlacesDecl:
        return s.PlacesDecl(pos_of(meta), c[0], True)

    def name_list(self, meta: Meta, c: list[Token]) -> tuple[s.Name, ...]:
        return tuple(_name(t) for t in c)

    def cell_word(self, meta: Meta, c: list[Token]) -> s.Name:
        return _name(c[0])

    def link_stmt(self, meta: Meta, c: list[s.Vector]) -> s.Links:
        return s.Links(pos_of(meta), tuple(c))

    def link_both(self, meta: Meta, c: list[s.Name]) -> s.Vector:
        return s.Vector(pos_of(meta), "link", source=c[0], target=c[1], both_ways=True)

    def link_one(self, meta: Meta, c: list[s.Name]) -> s.Vector:
        return s.Vector(pos_of(meta), "link", source=c[0], target=c[1], both_ways=False)

    def direction_stmt(self, meta: Meta, c: list[Any]) -> s.Direction:
        return s.Direction(pos_of(c[0]), str(c[0]), tuple(c[1:]))

    def shape_stmt(self, meta: Meta, c: list[Any]) -> s.ShapeDecl:
        return s.ShapeDecl(pos_of(c[1]), str(c[1]), tuple(c[2:]), cut=str(c[0]) != "shape")

    def shape_kw(self, meta: Meta, c: list[Token]) -> Token:
        return c[0]

    def step_vector(self, meta: Meta, c: list[Any]) -> s.Vector:
        return s.Vector(pos_of(meta), "step", c[0], c[1])

    def named_vector(self, meta: Meta, c: list[Any]) -> s.Vector:
        if str(c[0]) != "leap":
            raise SpecError(
                [Diagnostic(pos_of(c[0]), f"unknown kind of step '{c[0]}'", "(row step, column step) or leap(a, b)")]
            )
        return s.Vector(pos_of(meta), "leap", c[1], c[2])

    def direction_ref(self, meta: Meta, c: list[Token]) -> s.Vector:
        return s.Vector(pos_of(c[0]), "name", name=str(c[0]))

    def route_both(self, meta: Meta, c: list[Token]) -> s.Route:
        return s.Route(pos_of(meta), str(c[0]), str(c[1]), True)

    def route_one(self, meta: Meta, c: list[Token]) -> s.Route:
        return s.Route(pos_of(meta), str(c[0]), str(c[1]), False)

    def carrier_stmt(self, meta: Meta, c: list[Any]) -> s.Carrier:
        return s.Carrier(pos_of(c[0]), str(c[0]), str(c[1]), pos_of(c[1]))

    def cursor_stmt(self, meta: Meta, c: list[Any]) -> s.Cursor:
        return s.Cursor(pos_of(meta), c[0])

    def counter_stmt(self, meta: Meta, c: list[Any]) -> s.CounterDecl:
        doc = _text(c[4]) if len(c) > 4 else ""
        return s.CounterDecl(pos_of(c[0]), str(c[0]), c[1], c[2], c[3], doc)

    # ---- pieces
    def piece_stmt(self, meta: Meta, c: list[Any]) -> s.PieceDecl:
        symbol = c[0]
        kind = description = per = drawn = None
        attributes: tuple[tuple[s.Name, s.Expr], ...] = ()
        block = False
        block_size = None
        kind_pos = None
        for item in c[1:]:
            if isinstance(item, Token) and item.type == "NAME":
                kind, kind_pos = str(item), pos_of(item)
            elif isinstance(item, Token) and item.type == "STRING":
                description = _text(item)
            elif isinstance(item, tuple) and item[0] == "per":
                per = item[1]
            elif isinstance(item, tuple) and item[0] == "drawn":
                drawn = item[1]
            elif isinstance(item, tuple) and item[0] == "with":
                attributes += item[1]
            elif isinstance(item, tuple) and item[0] == "block":
                block, block_size = True, item[1]
        return s.PieceDecl(
            pos_of(symbol), str(symbol), kind, description, per, drawn, attributes, block, block_size, None, kind_pos
        )

    def piece_shape(self, meta: Meta, c: list[Any]) -> s.PieceDecl:
        rows = tuple(x for x in c if isinstance(x, s.Layout))
        declared = self.piece_stmt(meta, [x for x in c if not isinstance(x, s.Layout)])
        return declared._replace(shape=rows)

    def pieces_stmt(self, meta: Meta, c: list[Any]) -> s.PiecesDecl:
        description = None
        options: list[tuple[str, object, Pos]] = []
        for item in c[1:]:
            if isinstance(item, Token) and item.type == "STRING":
                description = _text(item)
            elif isinstance(item, tuple):
                options.append((item[0], item[1], item[2]))
        return s.PiecesDecl(pos_of(meta), c[0], description, tuple(options))

    def per_group(self, meta: Meta, c: list[Token]) -> tuple[str, str, Pos]:
        return ("per", str(c[0]), pos_of(meta))

    def drawn(self, meta: Meta, c: list[Token]) -> tuple[str, str, Pos]:
        return ("drawn", _text(c[0]), pos_of(meta))

    def with_attributes(self, meta: Meta, c: list[Any]) -> tuple[str, tuple[Any, ...], Pos]:
        return ("with", tuple(c), pos_of(meta))

    def piece_attribute(self, meta: Meta, c: list[Any]) -> tuple[s.Name, s.Expr]:
        return (_name(c[0]), c[1])

    def block(self, meta: Meta, c: list[Any]) -> tuple[str, tuple[Any, Any] | None, Pos]:
        return ("block", (c[0], c[1]) if c else None, pos_of(meta))

    def group_stmt(self, meta: Meta, c: list[Any]) -> s.GroupDecl:
        return s.GroupDecl(pos_of(c[0]), str(c[0]), c[1])

    # ---- start and goal
    def layout_kw(self, meta: Meta, c: list[Token]) -> Token:
        return c[0]

    def layout_stmt(self, meta: Meta, c: list[Any]) -> s.LayoutDecl:
        return s.LayoutDecl(pos_of(c[1]), str(c[0]), (c[1],))

    def level_picture(self, meta: Meta, c: list[Token]) -> s.Level:
        rows = tuple((Pos(t.line or 0, (t.column or 0) + 1), _text(t)) for t in c)
        return s.Level(pos_of(meta), rows)

    def level_from_stmt(self, meta: Meta, c: list[Any]) -> s.LevelFrom:
        if len(c) == 1:  # `level from "FILE"`: the file's one level
            return s.LevelFrom(pos_of(meta), s.Num(pos_of(c[0]), 1), _text(c[0]), pos_of(c[0]), only=True)
        return s.LevelFrom(pos_of(meta), c[0], _text(c[1]), pos_of(c[1]))

    def board_from(self, meta: Meta, c: list[Any]) -> s.PictureFrom:
        return s.PictureFrom(pos_of(meta), "board", _text(c[0]), pos_of(c[0]))

    def regions_from(self, meta: Meta, c: list[Any]) -> s.PictureFrom:
        return s.PictureFrom(pos_of(meta), "regions", _text(c[0]), pos_of(c[0]))

    def layout_from(self, meta: Meta, c: list[Any]) -> s.PictureFrom:
        return s.PictureFrom(pos_of(meta), str(c[0]), _text(c[1]), pos_of(c[1]))

    def legend_block(self, meta: Meta, c: list[s.LegendEntry]) -> s.Legend:
        return s.Legend(pos_of(meta), tuple(c))

    def legend_entry(self, meta: Meta, c: list[Any]) -> s.LegendEntry:
        return s.LegendEntry(pos_of(c[0]), _text(c[0]), c[1], c[2] if len(c) > 2 else None)

    def picture_stmt(self, meta: Meta, c: list[Any]) -> s.LayoutDecl:
        return s.LayoutDecl(pos_of(c[0]), str(c[0]), tuple(c[1:]), picture=True)

    def picture_row(self, meta: Meta, c: list[Any]) -> s.Layout:
        return s.Layout(pos_of(meta), tuple(c))

    def computed_layout_stmt(self, meta: Meta, c: list[Any]) -> s.ComputedLayout:
        return s.ComputedLayout(pos_of(c[1]), str(c[0]), c[1])

    def place_layout_stmt(self, meta: Meta, c: list[Any]) -> s.PlaceLayout:
        return s.PlaceLayout(pos_of(c[1]), str(c[0]), str(c[1]), c[2])

    def computed_place_stmt(self, meta: Meta, c: list[Any]) -> s.PlaceLayout:
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

    def no_cells(self, meta: Meta, c: list[Token]) -> s.NoCells:
        return s.NoCells(pos_of(c[0]), len(str(c[0])))

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
        name, form, rest = c[0], c[1], c[2:]
        actions: list[s.Action] = []
        if isinstance(form, _ActionForm):
            actions.append(form.action)
            form = None
        more: list[s.Name] = []
        until = None
        until_pieces = False
        guards: list[s.Expr] = []
        costs: list[s.Expr | s.CostParts] = []
        anchors: list[tuple[s.Name, ...]] = []
        repeated = None
        for item in rest:
            if isinstance(item, _Clause):
                if item.kind == "more_direction":
                    if actions or until is not None:
                        raise SpecError(
                            [
                                Diagnostic(
                                    item.pos,
                                    f"'{item.value.name}' is not an action",
                                    "take, put, advance, set, add, let, toggle or cycle "
                                    "(directions come right after 'along')",
                                )
                            ]
                        )
                    more.append(item.value)
                elif item.kind == "until":
                    until, until_pieces = item.pos, item.value
                elif item.kind == "guard":
                    guards.append(item.value)
                elif item.kind == "anchors":
                    anchors.append(item.value)
                elif item.kind == "repeated":
                    repeated = item.pos
                else:
                    costs.append(item.value)
            else:
                actions.append(item)
        return s.Move(
            pos_of(name),
            str(name),
            form,
            tuple(actions),
            tuple(more),
            until,
            tuple(guards),
            tuple(costs),
            tuple(anchors),
            repeated,
            until_pieces,
        )

    def more_direction(self, meta: Meta, c: list[Token]) -> _Clause:
        return _Clause("more_direction", _name(c[0]), pos_of(c[0]))

    def until(self, meta: Meta, c: list[Any]) -> _Clause:
        return _Clause("until", bool(c), pos_of(meta))

    def by_pieces(self, meta: Meta, c: list[Any]) -> bool:
        return True

    def guard(self, meta: Meta, c: list[Any]) -> _Clause:
        return _Clause("guard", c[0], pos_of(meta))

    def cost(self, meta: Meta, c: list[Any]) -> _Clause:
        """`cost E` or `cost E1, E2, ...`: the parts of a cost, compared in order."""
        value = c[0] if len(c) == 1 else s.CostParts(c[0].pos, tuple(c))
        return _Clause("cost", value, pos_of(meta))

    def repeated(self, meta: Meta, c: list[Any]) -> _Clause:
        return _Clause("repeated", None, pos_of(meta))

    def anchors(self, meta: Meta, c: list[Any]) -> _Clause:
        cells = tuple(s.Name(n.pos, str(n.value)) if isinstance(n, s.Num) else n for n in c)
        return _Clause("anchors", cells, pos_of(meta))

    def pattern(self, meta: Meta, c: list[s.Layout]) -> tuple[s.Layout, ...]:
        return tuple(c)

    def along(self, meta: Meta, c: list[Token]) -> tuple[str, s.Name]:
        return ("along", _name(c[0]))

    def in_shape(self, meta: Meta, c: list[Token]) -> tuple[str, s.Name]:
        return ("in", _name(c[0]))

    def rewrite_rule(self, meta: Meta, c: list[Any]) -> s.Rewrite:
        window = c[2] if len(c) > 2 else None
        along = (window[1],) if window is not None and window[0] == "along" else None
        shape = window[1] if window is not None and window[0] == "in" else None
        return s.Rewrite(pos_of(meta), c[0], c[1], along, shape)

    def slide_rule(self, meta: Meta, c: list[Any]) -> s.SlideForm:
        return s.SlideForm(pos_of(meta), "slide", c[0], (_name(c[1]),))

    def step_rule(self, meta: Meta, c: list[Any]) -> s.SlideForm:
        return s.SlideForm(pos_of(meta), "step", c[0], (_name(c[1]),))

    def name(self, meta: Meta, c: list[Token]) -> s.Name:
        return _name(c[0])

    def carry_rule(self, meta: Meta, c: list[Any]) -> s.Carry:
        with_ = tuple(v for k, v in c[2:] if k == "with")
        only = tuple(v for k, v in c[2:] if k == "only")
        return s.Carry(pos_of(meta), c[0], _name(c[1]), with_, only)

    def carry_with(self, meta: Meta, c: list[Token]) -> tuple[str, s.Name]:
        return ("with", _name(c[0]))

    def carry_only(self, meta: Meta, c: list[Token]) -> tuple[str, s.Name]:
        return ("only", _name(c[0]))

    def action_rule(self, meta: Meta, c: list[Any]) -> _ActionForm:
        return _ActionForm(c[0])

    def take_action(self, meta: Meta, c: list[Any]) -> s.Take:
        return s.Take(pos_of(meta), s.Var(pos_of(c[0]), str(c[0])[1:]), c[1])

    def put_on(self, meta: Meta, c: list[Token]) -> str:
        return str(c[0])

    def put_action(self, meta: Meta, c: list[Any]) -> s.Put:
        return s.Put(pos_of(meta), c[0], c[2], on=c[1] == "on")

    def advance_action(self, meta: Meta, c: list[Any]) -> s.Advance:
        along = _name(c[2]) if len(c) > 2 else None
        return s.Advance(pos_of(meta), _name(c[0]), c[1], along)

    def set_action(self, meta: Meta, c: list[Any]) -> s.SetCounter:
        return s.SetCounter(pos_of(meta), c[0], c[1])

    def add_action(self, meta: Meta, c: list[Any]) -> s.SetCounter:
        return s.SetCounter(pos_of(meta), c[1], c[0], add=True)

    def let_action(self, meta: Meta, c: list[Any]) -> s.Let:
        return s.Let(pos_of(meta), _name(c[0]), c[1])

    def toggle_action(self, meta: Meta, c: list[Any]) -> s.Toggle:
        items = [x for x in c if not isinstance(x, Token)]
        names = [x for x in c if isinstance(x, Token)]
        shape = _name(next(t for t in names if t.type == "NAME"))
        anchor = next((s.Var(pos_of(t), str(t)[1:]) for t in names if t.type == "VAR"), None)
        return s.Toggle(pos_of(meta), items[0], items[1] if len(items) > 1 else None, shape, anchor)

    def cycle_action(self, meta: Meta, c: list[Any]) -> s.Cycle:
        return s.Cycle(pos_of(meta), tuple(c))

    def cycle(self, meta: Meta, c: list[Any]) -> tuple[s.Name, ...]:
        return tuple(s.Name(n.pos, str(n.value)) if isinstance(n, s.Num) else n for n in c)

    def reverse_action(self, meta: Meta, c: list[Any]) -> s.Run:
        return s.Run(pos_of(meta), "reverse", *(self._end(x) for x in c))

    def rotate_action(self, meta: Meta, c: list[Any]) -> s.Run:
        return s.Run(pos_of(meta), "rotate", *(self._end(x) for x in c))

    @staticmethod
    def _end(end: Any) -> s.Expr:
        return s.Name(end.pos, str(end.value)) if isinstance(end, s.Num) else end

    def cycle_power(self, meta: Meta, c: list[Any]) -> s.Cycle:
        return s.Cycle(pos_of(meta), (), _name(c[0]), c[1])

    def power(self, meta: Meta, c: list[Token]) -> int:
        return -int(c[-1]) if str(c[0]) == "-" else int(c[-1])

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

    # ---- fillings
    def fill_stmt(self, meta: Meta, c: list[Any]) -> s.Fill:
        targets = tuple(x for x in c if isinstance(x, s.Name) and not isinstance(x, s.FillItem))
        items = tuple(x for x in c if isinstance(x, s.FillItem))
        return s.Fill(pos_of(meta), targets, items, any(x == "or empty" for x in c))

    def fill_range(self, meta: Meta, c: list[Any]) -> s.FillItem:
        return s.FillItem(pos_of(meta), c[0], c[1])

    def fill_name(self, meta: Meta, c: list[Token]) -> s.FillItem:
        return s.FillItem(pos_of(c[0]), _name(c[0]))

    def fill_empty(self, meta: Meta, c: list[Any]) -> str:
        return "or empty"

    def rule_stmt(self, meta: Meta, c: list[Any]) -> s.Rule:
        return s.Rule(pos_of(meta), (c[0],))

    def rule_block(self, meta: Meta, c: list[Any]) -> s.Rule:
        return s.Rule(pos_of(meta), tuple(c))

    def boxes_stmt(self, meta: Meta, c: list[Any]) -> s.Boxes:
        return s.Boxes(pos_of(meta), c[0], c[1])

    def regions_picture(self, meta: Meta, c: list[Any]) -> s.Regions:
        return s.Regions(pos_of(meta), tuple(c))

    def tile_stmt(self, meta: Meta, c: list[Any]) -> s.Tile:
        targets = tuple(x for x in c if isinstance(x, s.Name) and not isinstance(x, s.FillItem))
        items = tuple(x for x in c if isinstance(x, s.FillItem))
        turns = next((x for x in c if isinstance(x, str)), "")
        return s.Tile(pos_of(meta), targets, items, "turned" in turns, "flipped" in turns)

    def turned_flipped(self, meta: Meta, c: list[Any]) -> str:
        return "turned flipped"

    def turned(self, meta: Meta, c: list[Any]) -> str:
        return "turned"

    def flipped(self, meta: Meta, c: list[Any]) -> str:
        return "flipped"

    def all_different(self, meta: Meta, c: list[Any]) -> s.AllDifferent:
        return s.AllDifferent(pos_of(meta), tuple(c))

    def symmetry_stmt(self, meta: Meta, c: list[Any]) -> s.SymmetryDecl:
        return s.SymmetryDecl(pos_of(meta), tuple(c))

    def symmetry(self, meta: Meta, c: list[Any]) -> s.Symmetry:
        return s.Symmetry(pos_of(meta), tuple(c))

    def symmetry_part(self, meta: Meta, c: list[s.Name]) -> tuple[s.Name, ...]:
        return tuple(c)

    def sym_word(self, meta: Meta, c: list[Token]) -> s.Name:
        return _name(c[0])

    def search_stmt(self, meta: Meta, c: list[Token]) -> s.Directive:
        return s.Directive(pos_of(meta), "search", tuple(_name(t) for t in c))

    def show_stmt(self, meta: Meta, c: list[Token]) -> s.Directive:
        return s.Directive(pos_of(meta), "show", (_name(c[0]),))

    def heuristic_stmt(self, meta: Meta, c: list[Any]) -> s.Heuristic:
        return s.Heuristic(pos_of(meta), c[0])

    def objective_kw(self, meta: Meta, c: list[Token]) -> Token:
        return c[0]

    def objective_stmt(self, meta: Meta, c: list[Any]) -> s.Objective:
        return s.Objective(pos_of(meta), str(c[0]), c[1], _text(c[2]) if len(c) > 2 else None)

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
        return s.Quantified(pos_of(meta), str(c[0]), c[1], c[2])

    def counted(self, meta: Meta, c: list[Any]) -> s.Quantified:
        binder = s.Binder(pos_of(c[1]), _name(c[1]), None, c[2], None)
        return s.Quantified(pos_of(meta), str(c[0]), binder, None)

    def kind_binder(self, meta: Meta, c: list[Any]) -> s.Binder:
        names = [x for x in c if isinstance(x, Token)]
        location = next((x for x in c if isinstance(x, s.Location)), None)
        var = _name(names[1]) if len(names) > 1 else None
        return s.Binder(pos_of(meta), _name(names[0]), var, location, None)

    def in_binder(self, meta: Meta, c: list[Any]) -> s.Binder:
        names = [x for x in c if isinstance(x, Token)]
        collections = tuple(x for x in c if not isinstance(x, Token))
        if len(names) == 2:
            return s.Binder(pos_of(meta), _name(names[0]), _name(names[1]), None, collections)
        return s.Binder(pos_of(meta), None, _name(names[0]), None, collections)

    def count(self, meta: Meta, c: list[Any]) -> s.Aggregate:
        return s.Aggregate(pos_of(meta), "count", None, c[0], c[1] if len(c) > 1 else None)

    def count_at(self, meta: Meta, c: list[Any]) -> s.Aggregate:
        """`count(here)`, `count(at P)`: every piece there, of any kind."""
        binder = s.Binder(pos_of(meta), None, None, c[0], None)
        return s.Aggregate(pos_of(meta), "count", None, binder, None)

    def aggregate(self, meta: Meta, c: list[Any]) -> s.Aggregate:
        return s.Aggregate(pos_of(c[0]), str(c[0]), c[1], c[2], c[3] if len(c) > 3 else None)

    def here(self, meta: Meta, c: list[Any]) -> s.Location:
        return s.Location(pos_of(meta), None)

    def at_place(self, meta: Meta, c: list[Token]) -> s.Location:
        token = c[0]
        if token.type == "VAR":
            return s.Location(pos_of(meta), str(token)[1:], var=True)
        return s.Location(pos_of(meta), str(token))

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

    def member_range(self, meta: Meta, c: list[Any]) -> s.Binary:
        return s.Binary(pos_of(meta), "in", c[0], s.Range(pos_of(c[1]), c[1], c[2]))

    def is_empty(self, meta: Meta, c: list[Any]) -> s.IsEmpty:
        return s.IsEmpty(pos_of(meta), c[0])

    def is_not_empty(self, meta: Meta, c: list[Any]) -> s.IsEmpty:
        return s.IsEmpty(pos_of(meta), c[0], negated=True)

    def is_kind(self, meta: Meta, c: list[Any]) -> s.IsKind:
        return s.IsKind(pos_of(meta), c[0], _name(c[1]))

    def is_not_kind(self, meta: Meta, c: list[Any]) -> s.IsKind:
        return s.IsKind(pos_of(meta), c[0], _name(c[1]), negated=True)

    def located(self, meta: Meta, c: list[Any]) -> s.Located:
        return s.Located(pos_of(meta), c[0], c[1])

    def not_located(self, meta: Meta, c: list[Any]) -> s.Unary:
        return s.Unary(pos_of(meta), "not", s.Located(pos_of(meta), c[0], c[1]))

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
        digits = str(c[0])
        if len(digits) > MAX_DIGITS:
            raise SpecError(
                [
                    Diagnostic(
                        pos_of(c[0]),
                        f"this number has {len(digits):,} digits; puzint takes at most {MAX_DIGITS}",
                        f"a number of at most {MAX_DIGITS} digits",
                    )
                ]
            )
        return s.Num(pos_of(c[0]), int(digits))

    def string(self, meta: Meta, c: list[Token]) -> s.Str:
        return s.Str(pos_of(c[0]), _text(c[0]))

    def true(self, meta: Meta, c: list[Any]) -> s.Bool:
        return s.Bool(pos_of(meta), True)

    def false(self, meta: Meta, c: list[Any]) -> s.Bool:
        return s.Bool(pos_of(meta), False)

    def call(self, meta: Meta, c: list[Any]) -> s.Call:
        return s.Call(pos_of(c[0]), str(c[0]), tuple(c[1:]))

    def attribute(self, meta: Meta, c: list[Any]) -> s.Attr:
        return s.Attr(pos_of(meta), c[0], str(c[1]), pos_of(c[1]))

    def var_ref(self, meta: Meta, c: list[Token]) -> s.VarRef:
        return s.VarRef(pos_of(c[0]), str(c[0])[1:])

    def index(self, meta: Meta, c: list[Any]) -> s.Index:
        return s.Index(pos_of(meta), c[0], c[1])

    def list(self, meta: Meta, c: list[Any]) -> s.ListExpr:
        return s.ListExpr(pos_of(meta), tuple(x for x in c if x is not None))
