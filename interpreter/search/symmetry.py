"""Counting solutions up to symmetry, by Burnside's lemma: the number of classes of shortest
solutions is the average, over the symmetries that fix the start and the goal, of the number
of shortest solutions each symmetry leaves unchanged. A solution is unchanged by a symmetry
exactly when every state on it is, so each term is a count in the fixed states only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .layers import explore
from .limits import Limits
from .problem import Problem, State
from .result import SOLVED


def count_up_to_symmetry(
    problem: Problem[Any],
    limits: Limits,
    length: int,
    total: int,
    symmetries: Sequence[Callable[[State], State]],
) -> int:
    """`symmetries` are the non-identity symmetries fixing start and goal; `total` the plain count."""
    fixed_total = total
    for image in symmetries:

        def unchanged(state: State, image: Callable[[State], State] = image) -> bool:
            return bool(image(state) == state)

        result = explore(problem, limits, count=True, keep=unchanged)
        if result.status == SOLVED and result.length == length and result.count is not None:
            fixed_total += result.count
    group_size = len(symmetries) + 1
    assert fixed_total % group_size == 0, "Burnside's count must divide evenly"
    return fixed_total // group_size
