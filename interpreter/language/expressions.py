"""Evaluating the expression sub-language over parameter values (numbers, text, truth).

This is the only interpreter of spec expressions: nothing from a spec reaches Python's
eval/exec. Each operator is checked for the kinds of values it gets, so a bad spec gets a
positioned error rather than a Python exception.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import cast

from ..errors import Diagnostic, Pos, SpecError, suggest
from . import syntax as s

Value = int | str | bool | range | tuple[int, ...] | tuple[tuple[int, ...], ...]

LABELS = string.ascii_uppercase + string.ascii_lowercase

# Bounds on what a parameter-level expression may make, checked before it is made: far beyond
# any puzzle a search could answer, far short of a value that takes seconds or gigabytes.
MAX_DIGITS = 18
MAX_NUMBER = 10**MAX_DIGITS
MAX_TEXT = 100_000
MAX_MEMBERS = 100_000


class EvalError(SpecError):
    def __init__(self, pos: Pos, message: str, expected: str | None = None):
        super().__init__([Diagnostic(pos, message, expected)])


def type_name(value: object) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, range):
        return "a range"
    if isinstance(value, tuple):
        return "a list of lists" if value and isinstance(value[0], tuple) else "a list"
    return type(value).__name__


def bounded_number(pos: Pos, value: int) -> int:
    """A number computed in a spec stays within ±10^18: beyond it is a mistake (or a bomb)."""
    if -MAX_NUMBER <= value <= MAX_NUMBER:
        return value
    raise EvalError(pos, f"this number is beyond ±10^{MAX_DIGITS}", f"a number of at most {MAX_DIGITS} digits")


def members(pos: Pos, value: range | tuple[object, ...] | str, what: str, limit: int = MAX_MEMBERS) -> int:
    """The number of members of a range, list or text that is about to be made into pieces,
    cells or a list: refused at `pos` past `limit`, before anything is built."""
    if len(value) > limit:
        raise EvalError(pos, f"{what} has {len(value):,} members; puzint takes at most {limit:,}", f"at most {limit:,}")
    return len(value)


def _letters(pos: Pos, n: Value) -> str:
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= len(LABELS):
        raise EvalError(pos, f"letters() takes a number from 0 to {len(LABELS)}, got {n!r}")
    return LABELS[:n]


def _length(pos: Pos, v: Value) -> int:
    if isinstance(v, (str, range, tuple)):
        return len(v)
    raise EvalError(pos, f"len() takes text, a range or a list, got {type_name(v)}")


def _reversed(pos: Pos, v: Value) -> Value:
    if isinstance(v, str):
        return v[::-1]
    if isinstance(v, (range, tuple)):
        members(pos, v, "reversed()")
        return cast(Value, tuple(reversed(v)))
    raise EvalError(pos, f"reversed() takes text, a range or a list, got {type_name(v)}")


def _number_fn(fn: Callable[..., int]) -> Callable[..., int]:
    def apply(pos: Pos, *args: Value) -> int:
        for a in args:
            if not isinstance(a, int) or isinstance(a, bool):
                raise EvalError(pos, f"expected numbers, got {type_name(a)}")
        return bounded_number(pos, fn(*args))

    return apply


def _inseparable(pos: Pos, labels: Value, seed: Value) -> str:
    """A random order of the labels that no proper prefix makes "the first k labels" (so an
    amida ladder for it cannot be split in two), reproducible from the seed."""
    if not isinstance(labels, str) or isinstance(seed, bool) or not isinstance(seed, int):
        raise EvalError(pos, "inseparable() takes text and a number (the seed)", "inseparable(letters(n), seed)")
    if len(labels) < 2:
        raise EvalError(pos, "inseparable() needs at least two labels", "2 or more labels")
    repeated = sorted({ch for ch in labels if labels.count(ch) > 1})
    if repeated:
        raise EvalError(pos, f"inseparable() needs distinct labels, but {repeated[0]!r} repeats", "distinct labels")
    members(pos, labels, "inseparable()'s text", len(LABELS))
    rng = random.Random(seed)
    order = list(labels)
    # At least half of all orders qualify (for n >= 2), so this ends after a few tries.
    while True:
        rng.shuffle(order)
        if all(set(order[:k]) != set(labels[:k]) for k in range(1, len(order))):
            return "".join(order)


# name: (fewest arguments, most arguments (None: any number), function)
FUNCTIONS: dict[str, tuple[int, int | None, Callable[..., Value]]] = {
    "inseparable": (2, 2, _inseparable),
    "len": (1, 1, _length),
    "letters": (1, 1, _letters),
    "reversed": (1, 1, _reversed),
    "min": (2, None, _number_fn(min)),
    "max": (2, None, _number_fn(max)),
    "abs": (1, 1, _number_fn(abs)),
}


def arity_text(low: int, high: int | None) -> str:
    if high is None:
        return f"{low} or more arguments"
    if low == high:
        return f"{low} argument{'s' if low != 1 else ''}"
    return f"{low} or {high} arguments" if high == low + 1 else f"{low} to {high} arguments"


def _need_int(expr: s.Expr, value: Value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EvalError(expr.pos, f"expected a number here, got {type_name(value)}", "a number")
    return value


def _need_bool(expr: s.Expr, value: Value) -> bool:
    if not isinstance(value, bool):
        raise EvalError(expr.pos, f"expected a condition (true/false) here, got {type_name(value)}", "a condition")
    return value


def evaluate(expr: s.Expr, env: dict[str, Value]) -> Value:
    """The value of a parameter-level expression, with `env` giving the parameters."""
    if isinstance(expr, s.Num):
        return expr.value
    if isinstance(expr, s.Str):
        return expr.value
    if isinstance(expr, s.Bool):
        return expr.value
    if isinstance(expr, s.Name):
        if expr.name not in env:
            known = ", ".join(sorted(env)) or "none declared"
            raise EvalError(expr.pos, f"unknown name '{expr.name}'{suggest(expr.name, env)}", f"a parameter ({known})")
        return env[expr.name]
    if isinstance(expr, s.Unary):
        value = evaluate(expr.operand, env)
        if expr.op == "not":
            return not _need_bool(expr.operand, value)
        return bounded_number(expr.pos, -_need_int(expr.operand, value))
    if isinstance(expr, s.Binary):
        return _binary(expr, env)
    if isinstance(expr, s.Range):
        first = _need_int(expr.low, evaluate(expr.low, env))
        last = _need_int(expr.high, evaluate(expr.high, env))
        return range(first, last + 1)
    if isinstance(expr, s.Call):
        if expr.name not in FUNCTIONS:
            unknown = f"unknown function '{expr.name}'{suggest(expr.name, FUNCTIONS)}"
            raise EvalError(expr.pos, unknown, "one of: " + ", ".join(sorted(FUNCTIONS)))
        low, high, fn = FUNCTIONS[expr.name]
        if len(expr.args) < low or (high is not None and len(expr.args) > high):
            raise EvalError(expr.pos, f"{expr.name}() takes {arity_text(low, high)}, got {len(expr.args)}")
        return fn(expr.pos, *(evaluate(a, env) for a in expr.args))
    if isinstance(expr, s.ListExpr):
        return _list(expr, env)
    if isinstance(expr, s.Index):
        container = evaluate(expr.obj, env)
        i = _need_int(expr.at, evaluate(expr.at, env))
        if not isinstance(container, (tuple, str, range)):
            raise EvalError(expr.obj.pos, f"only a list, a range or text can be indexed, not {type_name(container)}")
        if not 1 <= i <= len(container):
            raise EvalError(expr.at.pos, f"index {i} is outside 1..{len(container)}", f"1..{len(container)}")
        return container[i - 1]
    raise EvalError(
        expr.pos,
        "this expression describes pieces and places, which a parameter-level expression cannot use",
        "numbers, text, parameters and comparisons",
    )


def _list(expr: s.ListExpr, env: dict[str, Value]) -> Value:
    """A list of numbers, or a list of lists of numbers (a nonogram's clues: `[[1], [2, 1],
    []]`); the kind is its first member's, and every member must be of that kind."""
    items = [evaluate(item, env) for item in expr.items]
    if not any(isinstance(v, (tuple, range)) for v in items):
        return tuple(_need_int(item, value) for item, value in zip(expr.items, items, strict=True))
    lists: list[tuple[int, ...]] = []
    for item, value in zip(expr.items, items, strict=True):
        if not isinstance(value, (tuple, range)):
            raise EvalError(
                item.pos, f"a list of lists holds lists, got {type_name(value)}", "a list of numbers: [1, 2]"
            )
        if any(isinstance(v, tuple) for v in value):
            raise EvalError(item.pos, "a list of lists holds lists of numbers, not deeper lists", "[1, 2]")
        lists.append(tuple(int(v) for v in value))  # type: ignore[arg-type]
    _text_size_of(expr.pos, sum(len(x) for x in lists))
    return tuple(lists)


def _text_size_of(pos: Pos, size: int) -> None:
    if size > MAX_TEXT:
        raise EvalError(pos, f"this list would hold {size:,} numbers; puzint takes at most {MAX_TEXT:,}")


def _binary(expr: s.Binary, env: dict[str, Value]) -> Value:
    op = expr.op
    if op in ("and", "or"):
        left = _need_bool(expr.left, evaluate(expr.left, env))
        if (op == "and" and not left) or (op == "or" and left):
            return left
        return _need_bool(expr.right, evaluate(expr.right, env))
    left_v = evaluate(expr.left, env)
    right_v = evaluate(expr.right, env)
    if op in ("==", "!="):
        if type_name(left_v) != type_name(right_v):
            raise EvalError(expr.pos, f"cannot compare {type_name(left_v)} with {type_name(right_v)}")
        return (left_v == right_v) == (op == "==")
    if op == "in":
        if isinstance(right_v, (range, tuple)):
            return _need_int(expr.left, left_v) in right_v
        if isinstance(right_v, str) and isinstance(left_v, str):
            return left_v in right_v
        raise EvalError(expr.pos, f"cannot test {type_name(left_v)} in {type_name(right_v)}")
    if op == "+" and isinstance(left_v, str) and isinstance(right_v, str):
        _text_size(expr, len(left_v) + len(right_v))
        return left_v + right_v
    if op == "*" and isinstance(left_v, str):
        times = _need_int(expr.right, right_v)
        _text_size(expr, len(left_v) * max(times, 0))
        return left_v * times
    if op == "*" and isinstance(left_v, (range, tuple)):  # a supply: (1..n) * n, each number n times
        times = _need_int(expr.right, right_v)
        _text_size(expr, len(left_v) * max(times, 0), "list", "members")
        return cast(Value, tuple(left_v) * max(times, 0))
    if op == "+" and isinstance(left_v, (range, tuple)) and isinstance(right_v, (range, tuple)):
        _text_size(expr, len(left_v) + len(right_v), "list", "members")
        if left_v and right_v and type_name(tuple(left_v)) != type_name(tuple(right_v)):
            raise EvalError(expr.pos, f"cannot join {type_name(left_v)} and {type_name(right_v)}", "lists of one kind")
        return cast(Value, tuple(left_v) + tuple(right_v))
    a = _need_int(expr.left, left_v)
    b = _need_int(expr.right, right_v)
    if op == "+":
        return bounded_number(expr.pos, a + b)
    if op == "-":
        return bounded_number(expr.pos, a - b)
    if op == "*":
        return bounded_number(expr.pos, a * b)
    if op in ("/", "%"):
        if b == 0:
            raise EvalError(expr.right.pos, "division by zero")
        return a // b if op == "/" else a % b
    comparisons = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
    return comparisons[op]


def _text_size(expr: s.Binary, size: int, what: str = "text", units: str = "characters") -> None:
    if size > MAX_TEXT:
        raise EvalError(expr.pos, f"this {what} would be {size:,} {units} long; puzint takes at most {MAX_TEXT:,}")


def show(value: Value) -> str:
    """A value as a person would write it on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, range):
        return f"{value.start}..{value.stop - 1}"
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):  # a list of lists as -p takes it: `1;2,1;` (`;` between lists)
            return ";".join(",".join(str(v) for v in inner) for inner in value)  # type: ignore[union-attr]
        return ",".join(str(v) for v in value)
    return str(value)
