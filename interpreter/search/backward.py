"""A puzzle seen from its goal: the moves run backwards from the goal state. Explored layer by
layer (`layers.explore`), it gives every state from which the goal can be reached, how far
each lies from it, and the hardest starts: those farthest from the goal. A path found this
way runs from the goal back to a state; `forwards` turns it into the moves that lead from
that state to the goal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .problem import Problem, State


class Backward:
    """`problem` with its goal as the start, predecessors as successors, and its start as
    the one goal (needs a goal that is one state, and moves that can be undone)."""

    def __init__(self, problem: Problem[Any]):
        assert problem.goal_state is not None and problem.invertible
        self.problem = problem
        self.start = problem.goal_state
        self.goal_state = problem.start
        self.invertible = True
        self.acyclic = problem.acyclic

    def expand(self, state: State) -> Sequence[tuple[State, int]]:
        return self.problem.expand_back(state)

    def expand_back(self, state: State) -> Sequence[tuple[State, int]]:
        return self.problem.expand(state)

    def is_goal(self, state: State) -> bool:
        return bool(state == self.goal_state)


def forwards(path: list[tuple[int, State]], goal: State) -> list[tuple[int, State]]:
    """A backward path from the goal, [(move, state before it), ...], as the forward path
    from its last state to the goal, [(move, state after it), ...]: each move number is the
    forward move from the state it was found from."""
    states = [goal] + [state for _, state in path]
    moves = [move for move, _ in path]
    return [(moves[i], states[i]) for i in reversed(range(len(path)))]
