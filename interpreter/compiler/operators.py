"""The arithmetic and comparison operators of the language, as Python functions: one table
that the evaluator (`evaluate`) and the filters decided before the search (`families.fixed_filters`)
both read, so that an operator means the same wherever a rule is read."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

ARITHMETIC: dict[str, Callable[[int, int], int]] = {"+": operator.add, "-": operator.sub, "*": operator.mul}
COMPARISON: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
