"""Elaboration of placement puzzles: a cell board, a hand of pieces, a cursor, and action
moves that take a piece from the hand, put it at the cursor and advance the cursor."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import topology
from ..compiler.placement import PlacementContext, compile_condition
from ..errors import Pos, SpecError
from ..model import EMPTY, SHOW_BOARD, SHOW_CIRCLE, ActionRule, Lit, PlacementPuzzle
from . import syntax as s

if TYPE_CHECKING:
    from ..model import BoardShape, PieceType
    from .elaborate import _Elaborator

HAND = "hand"


class PlacementBuilder:
    def __init__(self, ctx: _Elaborator, stmts: list[s.Statement]):
        self.ctx = ctx
        self.errors = ctx.errors
        self.stmts = stmts

    def build(self) -> PlacementPuzzle:
        ctx, stmts = self.ctx, self.stmts
        for stmt in stmts:
            if isinstance(stmt, (s.Route, s.Carrier, s.GroupDecl)):
                self.errors.error(stmt.pos, "this belongs to a board of places", "board places A, B, ...")
            if isinstance(stmt, s.Move) and not isinstance(stmt.rule, s.Actions):
                self.errors.error(stmt.pos, "a puzzle with a cursor takes action moves only", "take ?t from hand, ...")
        board = ctx._board(stmts)
        pieces = ctx._pieces(stmts)
        if board is None or pieces is None:
            ctx.errors.raise_if_any()
            raise AssertionError("unreachable: a missing board or pieces are always reported")
        directions = ctx._directions(stmts, board)
        cursor = self._cursor(board)
        hand = self._hand(pieces)
        start = self._start(board, pieces)
        context = PlacementContext(board.size, pieces, dict(ctx.scope.env))
        rules = self._rules(board, directions, context)
        safety = tuple(c for x in stmts if isinstance(x, s.Safe) for c in x.conditions)
        for condition in safety:
            self._check(condition, context)
        goal = self._goal(context)
        all_solutions, show = self._directives()
        reversal = self._symmetries()
        ctx.errors.raise_if_any()
        title = ctx._single(stmts, s.PuzzleTitle, "puzzle title", required=False)
        about = ctx._single(stmts, s.About, "about text", required=False)
        return PlacementPuzzle(
            title=title.title if isinstance(title, s.PuzzleTitle) else ctx.spec.filename,
            about=about.text if isinstance(about, s.About) else "",
            params={k: ctx.scope.env[k] for k in ctx.scope.param_pos},
            board=board,
            pieces=pieces,
            start=start,
            hand=hand,
            cursor=cursor,
            rules=rules,
            safety=safety,
            goal=goal,
            all_solutions=all_solutions,
            reversal=reversal,
            show=show,
            param_env=dict(ctx.scope.env),
        )

    def _check(self, condition: s.Expr, context: PlacementContext) -> None:
        try:
            compile_condition(condition, context)
        except SpecError as exc:
            self.errors.diagnostics.extend(exc.diagnostics)

    def _cursor(self, board: BoardShape) -> int:
        found = [x for x in self.stmts if isinstance(x, s.Cursor)]
        if not found:
            self.errors.error(Pos(1, 1), "action moves need a cursor", "cursor at CELL")
            return 0
        for extra in found[1:]:
            self.errors.error(extra.pos, "only one cursor is supported", "one cursor line")
        at = self.ctx._eval_int(found[0].start, "the cursor's cell", 0)
        if at is not None and at >= board.size:
            self.errors.error(found[0].start.pos, f"the board has cells 0..{board.size - 1}", f"0..{board.size - 1}")
            return 0
        return at or 0

    def _hand(self, pieces: tuple[PieceType, ...]) -> tuple[int, ...]:
        counts = [0] * len(pieces)
        by_symbol = {p.symbol: p for p in pieces}
        for stmt in self.stmts:
            if not isinstance(stmt, s.PlaceLayout):
                continue
            if stmt.place != HAND or stmt.which != "start":
                self.errors.error(
                    stmt.pos,
                    "beside its cells, a board has one store: the hand, filled at the start",
                    "start at hand: ...",
                )
                continue
            if stmt.contents is None:
                counts = [c + 1 for c in counts]
                continue
            for cell in self.ctx._expand(stmt.contents.items, by_symbol, "start"):
                if isinstance(cell, Lit) and cell.code != EMPTY:
                    counts[cell.code - 1] += 1
        return tuple(counts)

    def _start(self, board: BoardShape, pieces: tuple[PieceType, ...]) -> tuple[int, ...]:
        if not any(isinstance(x, (s.LayoutDecl, s.ComputedLayout)) and x.which == "start" for x in self.stmts):
            return (EMPTY,) * board.size
        found = self.ctx._layout(self.stmts, "start", board, {p.symbol: p for p in pieces})
        if found is None:
            return (EMPTY,) * board.size
        return tuple(c.code if isinstance(c, Lit) else EMPTY for c in found[0])

    def _rules(
        self,
        board: BoardShape,
        directions: dict[str, tuple[topology.Vector, ...]],
        context: PlacementContext,
    ) -> tuple[ActionRule, ...]:
        rules = []
        for move in self.stmts:
            if not isinstance(move, s.Move) or not isinstance(move.rule, s.Actions):
                continue
            rule = self._rule(move, move.rule, board, directions)
            if rule is not None:
                rules.append(rule)
                if move.rule.guard is not None:
                    self._check(move.rule.guard, context)
        if not rules:
            self.errors.error(Pos(1, 1), "the spec has no moves", "move NAME: take ?t from hand, ...")
        return tuple(rules)

    def _rule(
        self, move: s.Move, rule: s.Actions, board: BoardShape, directions: dict[str, tuple[topology.Vector, ...]]
    ) -> ActionRule | None:
        actions = list(rule.actions)
        if not actions or actions[0].verb != "take":
            self.errors.error(rule.pos, "an action move starts by taking a piece", "take ?t from hand")
            return None
        var, place = actions[0].args
        if place != HAND:
            self.errors.error(actions[0].pos, f"unknown store '{place}'", "hand")
        put = False
        amount: int | None = 0
        direction = None
        for action in actions[1:]:
            if action.verb == "put":
                if action.args[0] != var or action.args[1] != "cursor":
                    self.errors.error(action.pos, "put places the piece taken at the cursor", f"put ?{var} at cursor")
                put = True
            elif action.verb == "advance":
                what, step, way = action.args
                if what != "cursor":
                    self.errors.error(action.pos, f"only the cursor advances, not '{what}'", "advance cursor by ...")
                if isinstance(step, s.Var):
                    if step.name != var:
                        self.errors.error(step.pos, f"?{step.name} is not the piece taken", f"?{var}")
                    amount = None
                else:
                    amount = self.ctx._eval_int(step, "a number of steps", 0)  # type: ignore[arg-type]
                vectors = directions.get(str(way))
                if vectors is None or len(vectors) != 1:
                    known = ", ".join(sorted(k for k, v in directions.items() if len(v) == 1))
                    self.errors.error(action.pos, f"the cursor needs one direction, not '{way}'", f"one of: {known}")
                else:
                    direction = vectors[0]
            else:
                self.errors.error(action.pos, f"'{action.verb}' can only come first", "put or advance")
        return ActionRule(move.name, move.pos, put, amount, direction, rule.guard)

    def _goal(self, context: PlacementContext) -> s.Expr:
        found = [x for x in self.stmts if isinstance(x, s.GoalWhen)]
        if not found:
            self.errors.error(Pos(1, 1), "the spec has no goal", "goal when CONDITION")
            return s.Bool(Pos(1, 1), True)
        for extra in found[1:]:
            self.errors.error(extra.pos, "the goal is given twice", "one goal")
        self._check(found[0].condition, context)
        return found[0].condition

    def _directives(self) -> tuple[bool, str]:
        all_solutions, show = False, "board"
        for stmt in self.stmts:
            if not isinstance(stmt, s.Directive):
                continue
            word = stmt.words[0]
            allowed = ("shortest", "all") if stmt.kind == "search" else (SHOW_BOARD, SHOW_CIRCLE)
            if word.name not in allowed:
                self.errors.error(
                    word.pos, f"'{stmt.kind} {word.name}' is not supported here", "one of: " + ", ".join(allowed)
                )
            elif stmt.kind == "search":
                all_solutions = word.name == "all"
            else:
                show = word.name
        return all_solutions, show

    def _symmetries(self) -> bool:
        reversal = False
        for stmt in self.stmts:
            if not isinstance(stmt, s.SymmetryDecl):
                continue
            for sym in stmt.symmetries:
                words = [w.name for part in sym.parts for w in part]
                if words == ["reversal"]:
                    reversal = True
                else:
                    self.errors.error(sym.pos, "placement puzzles take the symmetry reversal", "symmetry reversal")
        return reversal
