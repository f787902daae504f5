"""Which pieces can ever be on the cells and in the places, and the moves (and goals) that
need one where it never is.

A move whose pattern or slide needs a piece the start does not have on the board, and that
no move can ever bring there, can never be made: a search would quietly "prove" that the
puzzle has no solution. Whether a piece can come is worked out as a fixpoint: starting
from the pieces on the cells and in the places at the start, every move that can be made
with the pieces available adds the pieces it can write on the cells or put in a place
(guards are not read: what is found is every piece that might come, never fewer), until
nothing changes. A move whose needs are still not met then is refused at its position.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.puzzle import (
    EMPTY,
    Bind,
    CellLoc,
    CursorLoc,
    Lit,
    Loc,
    Move,
    PieceType,
    Put,
    Rewrite,
    Slide,
    Take,
    Toggle,
    VarLoc,
)

ANY_PIECE = frozenset({-1})  # a need met by any piece at all (`?x`, `slide ?b`)


@dataclass
class Pools:
    """The pieces (codes) that can be on the cells, and in the places, so far."""

    cells: set[int] = field(default_factory=set)
    places: set[int] = field(default_factory=set)

    def grow(self, cells: set[int], places: set[int]) -> bool:
        """Add pieces; whether anything was new."""
        before = (len(self.cells), len(self.places))
        self.cells |= cells
        self.places |= places
        return before != (len(self.cells), len(self.places))


def unmet_needs(moves: list[Move], pools: Pools) -> dict[int, list[frozenset[int]]]:
    """For each move (by index) that can never be made, the needs the cells never meet; the
    pools grow to every piece that can ever be on the cells and in the places."""
    changed = True
    while changed:
        changed = False
        for move in moves:
            if not _unmet(move, pools.cells):
                changed |= pools.grow(*_brings(move, pools))
    return {i: unmet for i, move in enumerate(moves) if (unmet := _unmet(move, pools.cells))}


def never_made(move: Move, unmet: list[frozenset[int]], types: list[PieceType]) -> str:
    """Why the move can never be made, in the words of its needs."""
    if ANY_PIECE in unmet:
        why = "it needs a piece on the board, and the board is empty at the start and no move puts a piece there"
    else:
        needs = [" or ".join(sorted(types[code - 1].symbol for code in need)) for need in unmet]
        if len(needs) == 1:
            why = f"it needs {needs[0]}, which is not on the board at the start and no move puts it there"
        else:
            listed = ", ".join(needs[:-1]) + " and " + needs[-1]
            why = f"it needs {listed}, which are not on the board at the start and no move puts them there"
    return f"move {move.name} can never be made: {why}"


def _needs(move: Move) -> list[frozenset[int]]:
    """What the cells must hold for the move to be made: each need is met by any one of
    its pieces."""
    form = move.form
    needs: list[frozenset[int]] = []
    if isinstance(form, Rewrite):
        for cell in (c for window in form.lhs for c in window):
            if isinstance(cell, Lit) and cell.code != EMPTY:
                needs.append(frozenset({cell.code}))
            elif isinstance(cell, Bind):
                needs.append(ANY_PIECE)
    elif isinstance(form, Slide):
        needs.append(form.codes if form.variable is None else ANY_PIECE)
    for action in move.actions:
        if isinstance(action, Toggle) and EMPTY not in (action.first, action.second):
            needs.append(frozenset({action.first, action.second}))
    return list(dict.fromkeys(needs))


def _unmet(move: Move, cells: set[int]) -> list[frozenset[int]]:
    return [need for need in _needs(move) if not (need & cells if need != ANY_PIECE else cells)]


def _brings(move: Move, pools: Pools) -> tuple[set[int], set[int]]:
    """The pieces a move that can be made may write on the cells and put in the places."""
    cells: set[int] = set()
    places: set[int] = set()
    if isinstance(move.form, Rewrite):
        cells |= {c.code for window in move.form.rhs for c in window if isinstance(c, Lit) and c.code != EMPTY}
    taken = {action.slot: action.source for action in move.actions if isinstance(action, Take)}
    for action in move.actions:
        if isinstance(action, Toggle):
            cells |= {action.first, action.second} - {EMPTY}
        elif isinstance(action, Put):
            if action.code is not None:
                pieces = {action.code}
            elif action.slot in taken:
                pieces = set(pools.cells if _on_cells(taken[action.slot]) else pools.places)
            else:  # a piece a pattern or a slide matched on the cells
                pieces = set(pools.cells)
            (cells if _on_cells(action.target) else places).update(pieces)
    return cells, places


def _on_cells(loc: Loc) -> bool:
    if isinstance(loc, VarLoc):
        return loc.over == "cell"
    return isinstance(loc, (CellLoc, CursorLoc))
