"""All solutions, depth first, one at a time: only the current path is stored, so the first
solutions appear at once and memory stays small. A state already on the current path is not
entered again, so the enumeration ends even where moves can undo each other."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .limits import Limits
from .problem import Problem, State


def all_solutions(problem: Problem[Any], limits: Limits, counter: list[int]) -> Iterator[list[tuple[int, State]]]:
    """Yield every solution as [(move, state after it), ...]. `counter[0]` counts the states
    visited, so a caller can report it even when a limit stops the walk."""
    start = problem.start
    if problem.is_goal(start):
        yield []
        return
    path: list[tuple[int, State]] = []
    on_path = {start}
    stack = [iter(problem.expand(start))]
    expand, is_goal = problem.expand, problem.is_goal
    budget = 0  # the first check comes after the first state: it arms the exact state limit
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if path:
                on_path.discard(path.pop()[1])
            continue
        child, move = step
        if child in on_path:
            continue
        counter[0] += 1
        budget -= 1
        if budget <= 0:
            budget = limits.check(counter[0], stored=False)
        path.append((move, child))
        if is_goal(child):
            yield list(path)
            path.pop()
            continue
        on_path.add(child)
        stack.append(iter(expand(child)))
