"""Counting up to symmetry, and checking a declared symmetry on what a search found.

Counts of solutions up to symmetry use Burnside's lemma: the number of classes of solutions
is the average, over the symmetries that fix the start and the goal, of the number of
solutions each symmetry leaves unchanged. A solution is unchanged by a symmetry exactly when
every state on it is, so each term is a count in the fixed states only.

Where moves have conditions or actions, puzint cannot check a declared symmetry before the
search; it checks it on what the search computed: the set of states counted must be mapped
onto itself, and (for solution counts) each state's moves onto its image's moves.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from ..errors import Diagnostic, Pos
from .layers import explore
from .limits import Limits
from .problem import Problem, State
from .result import SOLVED, NotASymmetry

Image = Callable[[State], State]


def count_up_to_symmetry(
    problem: Problem[Any],
    limits: Limits,
    length: int,
    total: int,
    symmetries: Sequence[Image],
    counter: Callable[[int, Callable[[State], bool]], tuple[int | None, int | None]] | None = None,
) -> int:
    """`symmetries` are the non-identity symmetries fixing start and goal; `total` the plain
    count; `counter(i, keep)` counts solutions among the states that `keep` (symmetry i leaves
    them unchanged) accepts (default: shortest solutions, by a layered search), returning
    (length or cost, count)."""
    fixed_total = total
    for i, image in enumerate(symmetries):

        def unchanged(state: State, image: Image = image) -> bool:
            return bool(image(state) == state)

        if counter is not None:
            size, found = counter(i, unchanged)
        else:
            result = explore(problem, limits, count=True, keep=unchanged)
            size, found = (result.length, result.count) if result.status == SOLVED else (None, None)
        if size == length and found is not None:
            fixed_total += found
    group_size = len(symmetries) + 1
    if fixed_total % group_size:
        raise NotASymmetry(
            [
                Diagnostic(
                    Pos(0, 0),
                    "the declared symmetries do not divide the solutions evenly: one of them is not a symmetry",
                )
            ]
        )
    return fixed_total // group_size


def check_closed(states: Collection[State], generators: Sequence[tuple[str, Pos, Image]], what: str) -> None:
    """Each declared symmetry maps the set onto itself, or the spec is told which does not."""
    for name, pos, image in generators:
        for state in states:
            if image(state) not in states:
                raise not_closed(name, pos, what)


def not_closed(name: str, pos: Pos, what: str) -> NotASymmetry:
    return NotASymmetry(
        [
            Diagnostic(
                pos,
                f"'{name}' is not a symmetry of this puzzle from its start: it maps one of the {what} "
                "to a state that is not one (the rules may keep it, the states this start reaches do not)",
                "a symmetry of the board and of every rule",
            )
        ]
    )


def check_moves(
    problem: Problem[Any],
    states: Collection[State],
    generators: Sequence[tuple[str, Pos, Image]],
    costed: Callable[[State], list[tuple[State, int, int]]] | None = None,
) -> None:
    """Each declared symmetry maps the moves from every state onto the moves from its image
    (with `costed`, the successors with their costs: each move onto a move of the same cost)."""
    for name, pos, image in generators:
        for state in states:
            if costed is not None:
                mine_costed = {(image(child), cost) for child, _, cost in costed(state)}
                theirs_costed = {(child, cost) for child, _, cost in costed(image(state))}
                if mine_costed != theirs_costed:
                    same_moves = {c for c, _ in mine_costed} == {c for c, _ in theirs_costed}
                    raise moves_not_mapped(name, pos, "of another cost" if same_moves else "no rule allows")
                continue
            mine = {image(child) for child, _ in problem.expand(state)}
            theirs = {child for child, _ in problem.expand(image(state))}
            if mine != theirs:
                raise moves_not_mapped(name, pos)


def keeping_goals(
    is_goal: Callable[[State], bool], states: Collection[State], elements: Sequence[Image]
) -> list[Image]:
    """The symmetries that map every goal among `states` to a goal, and every other state to
    one that is not (a goal given by conditions cannot be mapped before the search)."""
    return [image for image in elements if all(is_goal(image(s)) == is_goal(s) for s in states)]


def moves_not_mapped(name: str, pos: Pos, into: str = "no rule allows") -> NotASymmetry:
    return NotASymmetry(
        [
            Diagnostic(
                pos,
                f"'{name}' is not a symmetry of this puzzle: it turns some move into one {into}",
                "a symmetry that maps every move to a move",
            )
        ]
    )
