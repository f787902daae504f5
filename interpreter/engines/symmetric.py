"""Counting solutions up to symmetry (Burnside's lemma over the symmetries that fix the start
and keep the goal), the same way whichever engine counts: the engine gives its own count of
the solutions a symmetry leaves unchanged, and its own check of the declared symmetries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..compiler import CompiledPuzzle
from ..compiler.symmetry import Element
from ..errors import Pos
from ..search import Limits, SearchResult, layers, symmetry
from ..search.limits import LimitReached, stop_reason
from ..search.result import LIMIT, NotASymmetry


def unchecked(compiled: CompiledPuzzle) -> list[tuple[str, Pos, Any]]:
    """The declared symmetries the compiler could not check: a search checks them on what it
    found (each with its image function)."""
    group = compiled.symmetry
    if group is None or group.checked:
        return []
    return [(sym.name, sym.pos, image) for sym, image in group.generators]


def candidates(compiled: CompiledPuzzle) -> list[Element]:
    """The symmetries (but the identity) that fix the start and the goal's cells and places."""
    group = compiled.symmetry
    assert group is not None
    return [e for e in group.solution_symmetries if e is not group.elements[0]]


def checked_in_python(compiled: CompiledPuzzle, limits: Limits, costed: bool = False) -> list[Element]:
    """The symmetries Burnside's count runs over, each checked where the compiler could not:
    the declared ones must map every reachable state's moves onto its image's (each onto a
    move of the same cost, `costed`), else NotASymmetry; where the goal is given by
    conditions, only the symmetries that map goals to goals (and nothing else to a goal) on
    the reachable states are kept."""
    kept = candidates(compiled)
    generators = unchecked(compiled)
    conditions = bool(compiled.puzzle.goal.conditions)
    if not generators and not (conditions and kept):
        return kept
    states: dict[Any, Any] = {}
    found = layers.explore(compiled, limits, exhaustive=True, verify=states.update)
    if found.status == LIMIT:
        raise LimitReached(found.limit_reason or "a limit was reached")
    if generators:
        symmetry.check_moves(compiled, states, generators, compiled.expand_costed if costed else None)
    if conditions:
        keeping = symmetry.keeping_goals(compiled.is_goal, states, [e.image for e in kept])
        kept = [e for e in kept if e.image in keeping]
    return kept


def count_up_to_symmetry(
    compiled: CompiledPuzzle,
    limits: Limits,
    result: SearchResult,
    size: int,
    elements: Callable[[], list[Element]],
    fixed: Callable[[Element], tuple[int | None, int | None]],
) -> None:
    """Burnside's count of the solutions up to symmetry, into the result: over the symmetries
    `elements()` gives (checking them), `fixed(element)` counting the solutions that element
    leaves unchanged (with their length or cost, `size` for the solutions counted). Where a
    declared symmetry is not one, the count is not given and the reason is; where a limit
    stops the checks or the counts, the result says so."""
    assert result.count is not None
    try:
        others = elements()
        result.count_up_to_symmetry = symmetry.count_up_to_symmetry(
            compiled,
            limits,
            size,
            result.count,
            [e.image for e in others],
            lambda i, _: fixed(others[i]),
        )
    except NotASymmetry as exc:
        result.symmetry_note = exc.reason()
    except (LimitReached, KeyboardInterrupt) as exc:
        result.status, result.limit_reason = LIMIT, stop_reason(exc)
