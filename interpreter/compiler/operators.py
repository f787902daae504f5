"""Binary operators of the condition language, shared by every compiler of conditions
(safety rules on places, guards and rules of placement puzzles): each operator becomes a
closure over its two compiled operands, with the operand types checked first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import Diagnostic, Pos, SpecError
from ..language import syntax as s

BOOL, INT, STR = "a condition", "a number", "text"
Fn = Callable[[Any], object]

ARITHMETIC: dict[str, tuple[Callable[[int, int], object], str]] = {
    "<": (lambda a, b: a < b, BOOL),
    "<=": (lambda a, b: a <= b, BOOL),
    ">": (lambda a, b: a > b, BOOL),
    ">=": (lambda a, b: a >= b, BOOL),
    "+": (lambda a, b: a + b, INT),
    "-": (lambda a, b: a - b, INT),
    "*": (lambda a, b: a * b, INT),
    "/": (lambda a, b: a // b if b else 0, INT),
    "%": (lambda a, b: a % b if b else 0, INT),
}


def fail(pos: Pos, message: str, expected: str | None = None) -> SpecError:
    return SpecError([Diagnostic(pos, message, expected)])


def expect(expr: s.Expr, kind: str, wanted: str) -> None:
    if kind != wanted:
        raise fail(expr.pos, f"expected {wanted} here, got {kind}", wanted)


def binary(expr: s.Binary, left: Fn, lk: str, right: Fn, rk: str) -> tuple[Fn, str]:
    """The closure for `left OP right`, and its type."""
    op = expr.op
    if op in ("and", "or"):
        expect(expr.left, lk, BOOL)
        expect(expr.right, rk, BOOL)
        if op == "and":
            return (lambda x: bool(left(x)) and bool(right(x))), BOOL
        return (lambda x: bool(left(x)) or bool(right(x))), BOOL
    if op in ("==", "!="):
        if lk != rk:
            raise fail(expr.pos, f"cannot compare {lk} with {rk}")
        if op == "==":
            return (lambda x: left(x) == right(x)), BOOL
        return (lambda x: left(x) != right(x)), BOOL
    if op not in ARITHMETIC:
        raise fail(expr.pos, f"'{op}' cannot be used in a condition")
    expect(expr.left, lk, INT)
    expect(expr.right, rk, INT)
    fn, kind = ARITHMETIC[op]
    return (lambda x: fn(left(x), right(x))), kind  # type: ignore[arg-type]
