"""Placement puzzles compiled for the search: a state is `bytes` — the cursor's cell, then
every cell of the board (0: empty, k: piece k), then how many of each piece the hand holds.
A move takes a piece from the hand, puts it at the cursor, advances the cursor by a
precomputed step table, and keeps the result only if its guard and the safety rules hold.
Conditions are compiled into closures over the state (nothing is ever evaluated as text)."""

from __future__ import annotations

from collections.abc import Callable

from .. import topology
from ..errors import Diagnostic, Pos, SpecError
from ..language import syntax as s
from ..model import PieceType, PlacementPuzzle
from .compile import MoveLabel
from .operators import BOOL, INT, STR, binary
from .operators import expect as _expect
from .operators import fail as _fail

Check = Callable[[bytes], object]


class PlacementContext:
    def __init__(self, size: int, pieces: tuple[PieceType, ...], params: dict[str, object]):
        self.size = size
        self.hand = 1 + size
        self.values = [-1] + [p.value if p.value is not None else p.code for p in pieces]
        self.params = params


def compile_condition(expr: s.Expr, ctx: PlacementContext) -> Check:
    fn, kind = _compile(expr, ctx)
    if kind != BOOL:
        raise _fail(expr.pos, f"expected a condition here, got {kind}", "a condition")
    return fn


def _cell_index(expr: s.Call, ctx: PlacementContext) -> Callable[[bytes], int]:
    if len(expr.args) != 1:
        raise _fail(expr.pos, "cell() takes one cell number", "cell(N)")
    index, kind = _compile(expr.args[0], ctx)
    if kind != INT:
        raise _fail(expr.args[0].pos, f"a cell number is a number, not {kind}", "a number")
    size = ctx.size

    def cell(state: bytes) -> int:
        i: int = int(index(state))  # type: ignore[call-overload]
        return 1 + i if 0 <= i < size else -1

    return cell


def _compile(expr: s.Expr, ctx: PlacementContext) -> tuple[Check, str]:
    if isinstance(expr, (s.Num, s.Str, s.Bool)):
        value = expr.value
        kind = BOOL if isinstance(value, bool) else INT if isinstance(value, int) else STR
        return (lambda state: value), kind
    if isinstance(expr, s.Name):
        if expr.name == "cursor":
            return (lambda state: state[0]), INT
        if expr.name in ctx.params:
            param = ctx.params[expr.name]
            kind = BOOL if isinstance(param, bool) else INT if isinstance(param, int) else STR
            return (lambda state: param), kind
        known = ", ".join(["cursor", *sorted(ctx.params)])
        raise _fail(expr.pos, f"unknown name '{expr.name}'", f"one of: {known}")
    if isinstance(expr, s.IsEmpty):
        target = expr.operand
        if isinstance(target, s.Name) and target.name == "cursor":
            return (lambda state: state[1 + state[0]] == 0), BOOL
        if isinstance(target, s.Name) and target.name == "hand":
            hand = ctx.hand
            return (lambda state: not any(state[hand:])), BOOL
        if isinstance(target, s.Call) and target.name == "cell":
            where = _cell_index(target, ctx)
            return (lambda state: where(state) < 0 or state[where(state)] == 0), BOOL
        raise _fail(expr.pos, "only the cursor's cell, the hand or a cell(N) can be empty", "cursor, hand or cell(N)")
    if isinstance(expr, s.Call) and expr.name == "cell":
        where = _cell_index(expr, ctx)
        values = ctx.values
        return (lambda state: values[state[where(state)]] if where(state) >= 0 else -1), INT
    if isinstance(expr, s.Unary):
        inner, kind = _compile(expr.operand, ctx)
        if expr.op == "not":
            _expect(expr.operand, kind, BOOL)
            return (lambda state: not inner(state)), BOOL
        _expect(expr.operand, kind, INT)
        return (lambda state: -inner(state)), INT  # type: ignore[operator]
    if isinstance(expr, s.Binary):
        return _binary(expr, ctx)
    raise _fail(expr.pos, "this expression cannot be used here", "conditions on the cursor, the hand and cells")


def _constant(expr: s.Expr) -> bool:
    """Does the expression depend only on numbers and parameters (not on the state)?"""
    if isinstance(expr, (s.Num, s.Str, s.Bool)):
        return True
    if isinstance(expr, s.Name):
        return expr.name != "cursor"
    if isinstance(expr, s.Unary):
        return _constant(expr.operand)
    if isinstance(expr, s.Binary):
        return _constant(expr.left) and _constant(expr.right)
    return False


def _decided(expr: s.Expr, ctx: PlacementContext) -> bool | None:
    """True or False when the parameters alone decide a condition (`first == 0 or ...` with
    no number given), None when it depends on the state."""
    if _constant(expr):
        return bool(_compile(expr, ctx)[0](b""))
    if isinstance(expr, s.Binary) and expr.op in ("and", "or"):
        left, right = _decided(expr.left, ctx), _decided(expr.right, ctx)
        short = expr.op == "or"
        if short in (left, right):
            return short
        if left is not None and right is not None:
            return left and right if expr.op == "and" else left or right
    return None


def _binary(expr: s.Binary, ctx: PlacementContext) -> tuple[Check, str]:
    left, lk = _compile(expr.left, ctx)
    right, rk = _compile(expr.right, ctx)
    op = expr.op
    if op in ("and", "or"):
        _expect(expr.left, lk, BOOL)
        _expect(expr.right, rk, BOOL)
        # A side fixed by the parameters is decided once, here: `first == 0 or ...` costs
        # nothing in the search when no number is given.
        for side, other in ((expr.left, right), (expr.right, left)):
            value = _decided(side, ctx)
            if value is not None:
                if value == (op == "or"):
                    return (lambda state, value=value: value), BOOL
                return other, BOOL
    return binary(expr, left, lk, right, rk)


class CompiledPlacement:
    symmetry = None
    invertible = False
    goal_state = None

    def __init__(self, puzzle: PlacementPuzzle):
        self.puzzle = puzzle
        board = puzzle.board
        self.size = board.size
        self.hand_at = 1 + board.size
        ctx = PlacementContext(board.size, puzzle.pieces, puzzle.param_env)
        self.values = ctx.values
        self.start = bytes([puzzle.cursor, *puzzle.start, *puzzle.hand])
        # a rule that the parameters already make true checks nothing
        self.checks = [
            compile_condition(c, ctx)  # type: ignore[arg-type]
            for c in puzzle.safety
            if _decided(c, ctx) is not True  # type: ignore[arg-type]
        ]
        self.goal = compile_condition(puzzle.goal, ctx)  # type: ignore[arg-type]
        self.rules = []
        top = max([p.value or 0 for p in puzzle.pieces] + [r.amount or 0 for r in puzzle.rules])
        for rule in puzzle.rules:
            guard = compile_condition(rule.guard, ctx) if rule.guard is not None else None  # type: ignore[arg-type]
            steps: list[list[int]] | None = None
            if rule.direction is not None:
                steps = [
                    [-1 if (t := topology.step(board, c, rule.direction, k)) is None else t for k in range(top + 1)]
                    for c in range(board.size)
                ]
            self.rules.append((rule, guard, steps))
        if any(not check(self.start) for check in self.checks):
            raise SpecError([Diagnostic(Pos(0, 0), "the start already breaks a safety rule")])

    def expand(self, state: bytes) -> list[tuple[bytes, int]]:
        out = []
        hand_at, pieces, checks = self.hand_at, len(self.puzzle.pieces), self.checks
        cursor = state[0]
        for r, (rule, guard, steps) in enumerate(self.rules):
            if rule.put and state[1 + cursor]:
                continue
            for k in range(pieces):
                if not state[hand_at + k]:
                    continue
                new = bytearray(state)
                new[hand_at + k] -= 1
                if rule.put:
                    new[1 + cursor] = k + 1
                if steps is not None:
                    amount = self.values[k + 1] if rule.amount is None else rule.amount
                    target = steps[cursor][amount] if 0 <= amount < len(steps[cursor]) else -1
                    if target < 0:
                        continue
                    new[0] = target
                # conditions read the bytearray as it is: most candidates fail the guard, and
                # then no bytes object is made for them
                if guard is not None and not guard(new):  # type: ignore[arg-type]
                    continue
                if checks and not all(check(new) for check in checks):  # type: ignore[arg-type]
                    continue
                out.append((bytes(new), r * pieces + k))
        return out

    def expand_back(self, state: bytes) -> list[tuple[bytes, int]]:
        raise NotImplementedError("placement moves are searched forwards only")

    def is_goal(self, state: bytes) -> bool:
        return bool(self.goal(state))

    def label(self, index: int, before: bytes) -> MoveLabel:
        pieces = len(self.puzzle.pieces)
        rule, k = divmod(index, pieces)
        cell = before[0]
        name = topology.cell_name(self.puzzle.board, cell)
        return MoveLabel(self.puzzle.rules[rule].name, ((self.puzzle.pieces[k].symbol, None, name),), (cell,))

    def placed(self, path: list[tuple[int, bytes]]) -> tuple[int, ...]:
        """The values of the pieces placed, in order: a solution's sequence."""
        pieces = len(self.puzzle.pieces)
        return tuple(self.values[move % pieces + 1] for move, _ in path)

    def cells(self, state: bytes) -> list[str]:
        return ["" if c == 0 else self.puzzle.pieces[c - 1].symbol for c in state[1 : 1 + self.size]]
