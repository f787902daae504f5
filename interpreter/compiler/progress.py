"""Whether a puzzle's moves can never bring back a state they left: some count of pieces (on
the cells, in one place, or in all places together) that every move changes in the same
direction. Placements (every move puts a piece on an empty cell, or takes one from the hand)
and peg solitaire (every jump removes a peg) are such puzzles.

Why it matters: a depth-first walk must not enter a state that is already on its path, and
keeps the path's states in a set to know it; where no move sequence can come back to a
state, no path can hold one twice, and the set is work for nothing. The answer is exact, not
a guess: each move's change is read off its rewrites and actions, and a move whose change
cannot be known before the search (a toggle to or from empty, a piece put into a place that
a variable names) leaves the count it touches out of the question.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..model.puzzle import (
    EMPTY,
    Advance,
    Carry,
    CellLoc,
    CursorLoc,
    Cycle,
    Let,
    Move,
    PlaceLoc,
    Put,
    Rewrite,
    SetCounter,
    Slide,
    Take,
    Toggle,
    VarLoc,
)
from .rewrite import Instance

Interval = tuple[int, int] | None  # the least and the most a move changes a count by; None: not known
CELLS = "cells"
PLACES = "places"  # every place together


def never_returns(
    places: int,
    table_instances: list[Instance],
    moves: Iterable[tuple[Move, list[Instance]]],
    blocks: bool,
) -> bool:
    """Whether every move changes one count of pieces in the same direction (see above):
    `table_instances` are the plain rewrites' instances, `moves` every other move with the
    instances of its rewrite form (if it has one)."""
    if blocks:  # a block's cells move together: not counted here
        return False
    counts: list[Any] = [CELLS, PLACES, *range(places)]
    changes = [_instances_change(table_instances)] if table_instances else []
    changes.extend(_move_change(move, instances, counts) for move, instances in moves)
    if not changes:
        return False
    for count in counts:
        each = [change.get(count) for change in changes]
        if any(c is None for c in each):
            continue
        lows, highs = [c[0] for c in each if c is not None], [c[1] for c in each if c is not None]
        if min(lows) >= 1 or max(highs) <= -1:
            return True
    return False


def _move_change(move: Move, instances: list[Instance], counts: list[Any]) -> dict[Any, Interval]:
    """How a move changes each count: its form's change, then its actions'."""
    change: dict[Any, Interval] = dict.fromkeys(counts, (0, 0))
    form = move.form
    if isinstance(form, Rewrite):
        change.update(_instances_change(instances))
    elif isinstance(form, Carry):
        change.update((count, None) for count in counts if isinstance(count, int))
    elif form is not None and not isinstance(form, Slide):  # a filling: counted by its progress, not here
        change.update(dict.fromkeys(counts, None))
    for action in move.actions:
        for count, step in _action_change(action, counts).items():
            change[count] = _add(change[count], step)
    return change


def _action_change(action: object, counts: list[Any]) -> dict[Any, Interval]:
    """The counts an action changes (the others it leaves as they are)."""
    if isinstance(action, (Advance, SetCounter, Let, Cycle)):
        return {}
    if isinstance(action, Toggle):
        return {CELLS: None} if EMPTY in (action.first, action.second) else {}
    if isinstance(action, Take):
        return _at(action.source, -1, counts)
    assert isinstance(action, Put)
    if action.code == EMPTY:
        return dict.fromkeys(counts)
    return _at(action.target, +1, counts)


def _at(loc: object, step: int, counts: list[Any]) -> dict[Any, Interval]:
    """A piece taken from (-1) or put at (+1) a location: a cell must hold one before a take
    and be empty before a put, a place holds one more or one fewer."""
    if isinstance(loc, (CellLoc, CursorLoc)) or (isinstance(loc, VarLoc) and loc.over == "cell"):
        return {CELLS: (step, step)}
    if isinstance(loc, PlaceLoc):
        return {PLACES: (step, step), loc.place: (step, step)}
    assert isinstance(loc, VarLoc)  # a place named by a variable: which one is not known
    return {PLACES: (step, step), **{count: None for count in counts if isinstance(count, int)}}


def _instances_change(instances: list[Instance]) -> dict[Any, Interval]:
    """How rewrites change the pieces on the cells: the least and the most over the instances."""
    known = [_instance_change(inst) for inst in instances]
    if not known or any(k is None for k in known):
        return {CELLS: None}
    steps = [k for k in known if k is not None]
    return {CELLS: (min(steps), max(steps))}


def _instance_change(inst: Instance) -> int | None:
    """How many pieces one rewrite instance adds to the cells (negative: removes), where its
    pattern says what each cell it writes held before (a content, or `?x`: some piece)."""
    checks, occupied, _same, writes, copies, _ = inst
    codes = dict(checks)
    held = set(occupied)

    def before(cell: int) -> int | None:
        if cell in codes:
            return int(codes[cell] != EMPTY)
        return 1 if cell in held else None

    change = 0
    for cell, code in writes:
        was = before(cell)
        if was is None:
            return None
        change += int(code != EMPTY) - was
    for cell, source in copies:
        was, brought = before(cell), before(source)
        if was is None or brought is None:
            return None
        change += brought - was
    return change


def _add(a: Interval, b: Interval) -> Interval:
    if a is None or b is None:
        return None
    return a[0] + b[0], a[1] + b[1]
