"""A spec's `heuristic` compiled into a function of the state: an estimate of the moves still
needed, for A* and IDA*. Built from numbers, parameters, arithmetic and three measures of
distance to the goal, each computed without ever evaluating text:

- `inversions()`: pairs of pieces in the opposite order from the goal (reading the board row
  by row); exact for puzzles whose move swaps two neighbours, such as amida-kuji;
- `displacement()`: how far each piece is from its goal cell, summed (steps on a line,
  Manhattan distance on a grid);
- `misplaced()`: goal cells that do not yet hold their piece.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable

from ..errors import Diagnostic, Pos, SpecError
from ..language import syntax as s
from ..model import EMPTY, Lit, Puzzle

Estimate = Callable[[bytes], int]


def _fail(pos: Pos, message: str, expected: str | None = None) -> SpecError:
    return SpecError([Diagnostic(pos, message, expected)])


def compile_heuristic(puzzle: Puzzle) -> Estimate:
    expr = puzzle.heuristic
    assert isinstance(expr, (s.Num, s.Name, s.Call, s.Binary, s.Unary, s.Str, s.Bool))
    if not puzzle.goal_is_concrete:
        raise _fail(expr.pos, "a heuristic measures the distance to one goal state; this goal has ?", "no ?")
    return _compile(expr, puzzle)


def _goal_places(puzzle: Puzzle, pos: Pos, what: str) -> dict[int, int]:
    where: dict[int, int] = {}
    for cell, item in enumerate(puzzle.goal):
        if isinstance(item, Lit) and item.code != EMPTY:
            if item.code in where:
                raise _fail(pos, f"{what} needs every piece to appear once in the goal", "distinct pieces")
            where[item.code] = cell
    return where


def _inversions(puzzle: Puzzle, pos: Pos) -> Estimate:
    order = _goal_places(puzzle, pos, "inversions()")
    rank = [order.get(code, -1) for code in range(256)]

    def inversions(state: bytes) -> int:
        seen: list[int] = []
        count = 0
        for code in state:
            if code:
                r = rank[code]
                count += len(seen) - bisect_left(seen, r)
                insort(seen, r)
        return count

    return inversions


def _displacement(puzzle: Puzzle, pos: Pos) -> Estimate:
    goal = _goal_places(puzzle, pos, "displacement()")
    cols = puzzle.board.cols
    target = {code: divmod(cell, cols) for code, cell in goal.items()}
    far = [[0] * puzzle.board.size for _ in range(256)]
    for code, (gr, gc) in target.items():
        for cell in range(puzzle.board.size):
            r, c = divmod(cell, cols)
            far[code][cell] = abs(r - gr) + abs(c - gc)

    def displacement(state: bytes) -> int:
        return sum(far[code][cell] for cell, code in enumerate(state) if code)

    return displacement


def _misplaced(puzzle: Puzzle) -> Estimate:
    wanted = [(cell, item.code) for cell, item in enumerate(puzzle.goal) if isinstance(item, Lit) and item.code]

    def misplaced(state: bytes) -> int:
        return sum(1 for cell, code in wanted if state[cell] != code)

    return misplaced


MEASURES = {"inversions": _inversions, "displacement": _displacement}


def _compile(expr: s.Expr, puzzle: Puzzle) -> Estimate:
    if isinstance(expr, s.Num):
        value = expr.value
        return lambda state: value
    if isinstance(expr, s.Name):
        param = puzzle.param_env.get(expr.name)
        if isinstance(param, int) and not isinstance(param, bool):
            return lambda state: param
        raise _fail(expr.pos, f"unknown number '{expr.name}'", "a number parameter")
    if isinstance(expr, s.Call):
        if expr.args:
            raise _fail(expr.pos, f"{expr.name}() takes no arguments", f"{expr.name}()")
        if expr.name in MEASURES:
            return MEASURES[expr.name](puzzle, expr.pos)
        if expr.name == "misplaced":
            return _misplaced(puzzle)
        raise _fail(expr.pos, f"unknown measure '{expr.name}'", "inversions(), displacement() or misplaced()")
    if isinstance(expr, s.Binary) and expr.op in ("+", "-", "*", "/"):
        left, right = _compile(expr.left, puzzle), _compile(expr.right, puzzle)
        if expr.op == "+":
            return lambda state: left(state) + right(state)
        if expr.op == "-":
            return lambda state: left(state) - right(state)
        if expr.op == "*":
            return lambda state: left(state) * right(state)
        return lambda state: left(state) // max(1, right(state))
    raise _fail(expr.pos, "a heuristic is a number built from measures and parameters", "e.g. inversions()")
