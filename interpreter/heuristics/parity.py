"""A parity every move keeps, derived from the spec: a proof that a start cannot reach its goal.

Where every move only moves pieces among its cells (a permutation of the contents of the cells
it names: `?t _ -> _ ?t`) and no two cells hold the same thing, each arrangement is a
permutation of the goal's, and each move changes its parity by that of the move's own
permutation. Sliding tiles swap a tile with the empty cell: every move is odd, and so the
parity alone says nothing; but the empty cell moves with each one, from a square of one colour
of the board to one of the other, so that the parity of the arrangement and the colour of the
empty cell's square change together. This is Johnson and Story's proof (1879) that the fifteen
puzzle's arrangements fall into two halves that cannot reach each other.

The same holds of any puzzle whose moves are such permutations: the invariant looked for is the
parity of the arrangement plus the colour of one value's cell (a piece, or the empty cell, that
moves alone each time its move is odd), for a colouring of the cells found from the moves
themselves (two cells that value moves between by an odd move have different colours, by an
even move the same), or the parity alone where every move is even. Only what the moves say is
used: no puzzle is recognised. Where no such invariant exists, nothing is said (None), and the
search decides; where one does, and the start's value differs from the goal's, no sequence of
moves joins them, whatever its length.
"""

from __future__ import annotations

from collections import Counter, deque

from ..compiler import CompiledPuzzle
from ..model.puzzle import ANY, EMPTY
from .abstraction import Abstraction, abstraction, changed_cells, held_before


def unreachable(compiled: CompiledPuzzle) -> str | None:
    """Why the start can never reach the goal (a parity every move keeps differs between
    them), or None: no such parity, or the start keeps the goal's."""
    start = tuple(compiled.start[: compiled.cells])
    goal = compiled.puzzle.goal.cells
    if goal is None or ANY in goal or len(set(start)) != len(start) or Counter(start) != Counter(goal):
        return None  # a goal that leaves cells open, or two cells alike: no parity of an arrangement
    found = abstraction(compiled)
    if isinstance(found, str):
        return None
    moves = _permutations(found)
    if moves is None:
        return None
    odd = _odd(start, goal)
    if all(parity == 0 for parity, _ in moves):
        if odd:
            return "every move is an even permutation of the pieces, and the start is an odd one of the goal's"
        return None
    for value in _alone(found, moves):
        colour = _colouring(moves, value, found.cells)
        if colour is None:
            continue
        start_cell, goal_cell = start.index(value), goal.index(value)
        if odd != (colour[start_cell] != colour[goal_cell]):
            moved = _named(compiled, value)
            return (
                f"every move changes the parity of the pieces' arrangement exactly when it moves {moved} "
                "between cells of two colours (of a colouring the moves give the board), and the start's "
                "arrangement and that cell's colour do not match the goal's"
            )
    return None


Move = tuple[int, dict[int, tuple[int, int]]]  # its parity, and each value it names: (from, to)


def _alone(found: Abstraction, moves: list[Move]) -> list[int]:
    """The values whose every step a move names by code: the empty cell (a variable of a move
    stands for a piece, never for an empty cell), and, where no move carries a piece by a
    variable (`?t`), every value the moves name."""
    named = sorted({value for _, moved in moves for value in moved} & set(found.goal))
    if any(inst[4] for inst in found.reversed_moves):
        return [value for value in named if value == EMPTY]
    return named


def _permutations(found: Abstraction) -> list[Move] | None:
    """Each move as a permutation of its cells' contents: its parity, and where each value it
    names by its code goes. None where a move's permutation is not one bijection (two cells of
    it alike before it)."""
    moves: list[Move] = []
    for inst in found.reversed_moves:
        after = changed_cells(inst)
        source: dict[object, int] = {}
        for cell in after:
            held = held_before(inst, cell)
            key = repr(held)
            if key in source:
                return None
            source[key] = cell
        goes: dict[int, int] = {}
        for cell, held in after.items():
            origin = source.get(repr(held))
            if origin is None:
                return None
            goes[origin] = cell
        named = {
            code: (cell, goes[cell]) for cell, code in inst[0] if cell in goes and goes[cell] != cell
        }  # the values the move checks for by code, and where it takes them
        moves.append((_parity(goes), named))
    return moves


def _parity(goes: dict[int, int]) -> int:
    """The parity of a permutation of cells (each cell to the cell its content goes to)."""
    seen: set[int] = set()
    parity = 0
    for cell in goes:
        length = 0
        while cell not in seen:
            seen.add(cell)
            cell = goes[cell]
            length += 1
        if length:
            parity ^= (length - 1) & 1
    return parity


def _odd(start: tuple[int, ...], goal: tuple[int, ...]) -> bool:
    """Whether the start's arrangement is an odd permutation of the goal's (values distinct)."""
    where = {value: cell for cell, value in enumerate(goal)}
    return bool(_parity({cell: where[value] for cell, value in enumerate(start)}))


def _colouring(moves: list[Move], value: int, cells: int) -> list[int] | None:
    """Colours of the cells such that every move that moves `value` changes its cell's colour
    exactly when the move is odd, where every move that leaves it be is even; None where no
    colouring does (the constraints, parities along the value's steps, contradict)."""
    steps: list[list[tuple[int, int]]] = [[] for _ in range(cells)]
    for parity, named in moves:
        if value not in named:
            if parity:
                return None  # an odd move that leaves the value where it is: no such invariant
            continue
        a, b = named[value]
        steps[a].append((b, parity))
        steps[b].append((a, parity))
    colour = [-1] * cells
    for first in range(cells):
        if colour[first] >= 0:
            continue
        colour[first] = 0
        queue = deque([first])
        while queue:
            cell = queue.popleft()
            for other, parity in steps[cell]:
                wanted = colour[cell] ^ parity
                if colour[other] < 0:
                    colour[other] = wanted
                    queue.append(other)
                elif colour[other] != wanted:
                    return None
    return colour


def _named(compiled: CompiledPuzzle, value: int) -> str:
    """A value as the spec writes it: a piece's symbol, or the empty cell."""
    symbol = compiled.puzzle.symbol(value)
    return "the empty cell" if symbol in ("_", ".", "") else f"piece {symbol}"
