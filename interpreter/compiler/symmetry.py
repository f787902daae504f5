"""Declared symmetries, compiled: the group they generate, fast functions mapping a state to
its image and to a canonical form (the least image), and the checks that a declared
symmetry really is one.

Where every move is a rewrite table, a symmetry is checked statically: it must map each
move to a move. Other moves (conditions, actions, carries) are checked on what the search
computes: the reachable states, the goal states or the shortest-path graph must be closed
under the symmetry (see `search.symmetry`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from ..errors import NOWHERE, Diagnostic, Pos, SpecError
from ..model.puzzle import ANY, Puzzle, Symmetry
from .layout import StateLayout

Map = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]  # (cells, codes, places)


@dataclass(frozen=True)
class Element:
    """One element of the symmetry group, with a fast state -> image function."""

    name: str
    cells: tuple[int, ...]
    codes: tuple[int, ...]
    places: tuple[int, ...]
    image: Callable[[bytes], bytes]


def generate(symmetries: Iterable[Symmetry], cells: int, codes: int, places: int) -> list[tuple[str, Map]]:
    """Close the declared symmetries under composition; the identity comes first."""
    identity: Map = (tuple(range(cells)), tuple(range(codes)), tuple(range(places)))
    group: dict[Map, str] = {identity: "identity"}
    generators = [((s.cells, s.codes, s.places), s.name) for s in symmetries]
    frontier = [identity]
    while frontier:
        following = []
        for element in frontier:
            for (g_cells, g_codes, g_places), g_name in generators:
                mapped = (
                    tuple(g_cells[c] for c in element[0]),
                    tuple(g_codes[c] for c in element[1]),
                    tuple(g_places[p] for p in element[2]),
                )
                if mapped not in group:
                    group[mapped] = g_name if group[element] == "identity" else f"{group[element]} then {g_name}"
                    following.append(mapped)
        frontier = following
    return [(name, m) for m, name in group.items()]


def image_function(
    layout: StateLayout, cells: tuple[int, ...], codes: tuple[int, ...], places: tuple[int, ...]
) -> Callable[[bytes], bytes]:
    n = layout.cells
    inverse = [0] * n
    for i, j in enumerate(cells):
        inverse[j] = i
    table = bytes(codes) + bytes(range(len(codes), 256))
    same_codes = all(c == i for i, c in enumerate(codes))
    if layout.size == n:  # cells only: translate the codes, then gather the cells
        if n == 1:
            return lambda state: state.translate(table)
        gather = itemgetter(*inverse)
        if same_codes:  # a symmetry of the board alone: only the cells move
            return lambda state: bytes(gather(state))
        return lambda state: bytes(gather(state.translate(table)))
    gather_cells = itemgetter(*inverse) if n > 1 else None
    head_end = layout.places[0].offset if layout.places else layout.size
    slots = layout.places
    place_inverse = [0] * len(places)
    for i, j in enumerate(places):
        place_inverse[j] = i
    pieces = layout.pieces
    bag_order = [0] * pieces  # the image's count of piece c is the count of the piece mapped to c
    for code in range(1, pieces + 1):
        bag_order[codes[code] - 1] = code - 1

    def image(state: bytes) -> bytes:
        out = bytearray(state[:head_end])
        if n > 1:
            out[:n] = bytes(gather_cells(state[:n].translate(table)))  # type: ignore[misc]
        elif n == 1:
            out[:1] = state[:1].translate(table)
        for target in range(len(slots)):
            source = slots[place_inverse[target]]
            part = state[source.offset : source.offset + source.length]
            if source.stack:
                out += part.translate(table)
            else:
                out += bytes(part[bag_order[c]] for c in range(pieces))
        return bytes(out)

    return image


def with_blocks(
    puzzle: Puzzle, name: str, pos: Pos, cells: tuple[int, ...], plain: Callable[[bytes], bytes]
) -> Callable[[bytes], bytes]:
    """The image function for a board with blocks: one-cell pieces map as usual; each block's
    cells map to cells that form the same shape somewhere else, anchored again at its first
    cell in reading order. A symmetry that would change a block's shape (turning a 2 x 1
    domino on its side) is not one of this puzzle: it is refused where it is declared."""
    board = puzzle.board
    assert board is not None
    shapes = {p.code: p.shape for p in puzzle.pieces if p.shape is not None}
    part_code = {(part.piece, part.offset): code for code, part in enumerate(puzzle.parts)}
    for code, shape in shapes.items():
        assert shape is not None
        for anchor in range(board.size):
            spots = [board.step(anchor, v) for v in shape]
            if None in spots:
                continue
            mapped = sorted(cells[c] for c in spots)  # type: ignore[index]
            first = board.cells[mapped[0]]
            offsets = sorted(
                ((board.cells[c].row or 0) - (first.row or 0), (board.cells[c].col or 0) - (first.col or 0))
                for c in mapped
            )
            if offsets != sorted(shape):
                symbol = puzzle.pieces[code - 1].symbol
                raise SpecError(
                    [
                        Diagnostic(
                            pos,
                            f"'{name}' is not a symmetry of this puzzle: it changes the shape of block {symbol}",
                            "symmetries that keep every block's shape (mirror and flip keep rectangles)",
                        )
                    ]
                )
            break
    anchors = {code for code in shapes}

    def image(state: bytes) -> bytes:
        out = bytearray(plain(state))
        n = board.size
        for i in range(n):  # the plain image moved every part on its own: put the blocks back together
            code = state[i]
            if code and puzzle.parts[code].piece in shapes:
                out[cells[i]] = 0
        for i in range(n):
            code = state[i]
            if code in anchors:
                shape = shapes[code]
                assert shape is not None
                mapped = sorted(cells[c] for c in (board.step(i, v) for v in shape) if c is not None)
                first = board.cells[mapped[0]]
                for k, (dr, dc) in enumerate(shape):
                    at = board.at((first.row or 0) + dr, (first.col or 0) + dc)
                    assert at is not None
                    out[at] = part_code[(code, k)]
        return bytes(out)

    return image


def map_instance_key(key: tuple[object, ...], cells: tuple[int, ...], codes: tuple[int, ...]) -> tuple[object, ...]:
    """The image of a move instance's key (checks, occupied, same, writes, copies)."""
    checks, occupied, same, writes, copies = key
    return (
        tuple(sorted((cells[c], codes[v]) for c, v in checks)),  # type: ignore[attr-defined]
        tuple(sorted(cells[c] for c in occupied)),  # type: ignore[attr-defined]
        tuple(sorted(tuple(sorted((cells[a], cells[b]))) for a, b in same)),  # type: ignore[attr-defined]
        tuple(sorted((cells[c], codes[v]) for c, v in writes)),  # type: ignore[attr-defined]
        tuple(sorted((cells[c], cells[f]) for c, f in copies)),  # type: ignore[attr-defined]
    )


def _bag_image(counts: tuple[int, ...] | None, codes: tuple[int, ...]) -> tuple[int, ...] | None:
    """A bag's counts (indexed by code - 1) once each piece is replaced by its image."""
    if counts is None:
        return None
    image = [0] * len(counts)
    for i, n in enumerate(counts):
        image[codes[i + 1] - 1] = n
    return tuple(image)


def _codes_image(sequence: tuple[int, ...] | None, codes: tuple[int, ...]) -> tuple[int, ...] | None:
    return None if sequence is None else tuple(codes[c] for c in sequence)


class SymmetryGroup:
    def __init__(
        self, puzzle: Puzzle, layout: StateLayout, start: bytes, instance_keys: set[tuple[object, ...]] | None
    ):
        """`instance_keys`: the rewrite table's moves when every move is one (the symmetries
        are then checked here), else None (checked on what the search computes)."""
        self.declared = puzzle.symmetries
        self.checked = instance_keys is not None
        # a filling's symmetries checked on its ground rules before the search
        # (`fill_symmetry`), and where they could not be, why: then on the solutions found
        self.on_rules = False
        self.unread_rules: str | None = None
        if instance_keys is not None:
            errors = []
            for sym in puzzle.symmetries:
                broken = next(
                    (k for k in instance_keys if map_instance_key(k, sym.cells, sym.codes) not in instance_keys), None
                )
                if broken is not None:
                    errors.append(
                        Diagnostic(
                            sym.pos,
                            f"'{sym.name}' is not a symmetry of this puzzle: "
                            "it turns some move into one no rule allows",
                            "a symmetry that maps every move to a move",
                        )
                    )
            if errors:
                raise SpecError(errors)
        elements = generate(puzzle.symmetries, layout.cells, len(puzzle.parts), len(puzzle.places))

        def image(name: str, pos: Pos, cells: tuple[int, ...], codes: tuple[int, ...], places: tuple[int, ...]) -> Any:
            plain = image_function(layout, cells, codes, places)
            return with_blocks(puzzle, name, pos, cells, plain) if puzzle.has_blocks else plain

        positions = {sym.name: sym.pos for sym in puzzle.symmetries}
        self.elements = [
            Element(
                name,
                cells,
                codes,
                places,
                image(name, positions.get(name.split(" then ")[-1], NOWHERE), cells, codes, places),
            )
            for name, (cells, codes, places) in elements
        ]
        # each declared symmetry with its own image, for the checks made on what a search found
        self.generators = [
            (sym, image(sym.name, sym.pos, sym.cells, sym.codes, sym.places)) for sym in puzzle.symmetries
        ]
        goal = puzzle.goal
        goal_cells = {(i, c) for i, c in enumerate(goal.cells or ()) if c != ANY}

        def fixes_goal(e: Element) -> bool:
            if (
                goal.cells is not None
                and {(e.cells[i], e.codes[c] if c >= 0 else c) for i, c in goal_cells} != goal_cells
            ):
                return False
            mapped = {
                (e.places[g.place], _bag_image(g.at_least, e.codes), _codes_image(g.sequence, e.codes))
                for g in goal.places
            }
            return not goal.places or mapped == {(g.place, g.at_least, g.sequence) for g in goal.places}

        # The elements that fix the start and the goal: they map solutions to solutions.
        self.solution_symmetries = [e for e in self.elements if e.image(start) == start and fixes_goal(e)]
        # Every element maps goal states to goal states (and nothing else to one): a search
        # for one solution may then explore one state of each class, a state's class mates
        # leading to the goal exactly when it does. (A goal given by conditions is not known
        # to be kept before the search.)
        self.keeps_goal = not goal.conditions and all(fixes_goal(e) for e in self.elements)
        images = [e.image for e in self.elements[1:]]

        def canonical(state: bytes) -> bytes:
            best = state
            for image in images:
                other = image(state)
                if other < best:
                    best = other
            return best

        self.canonical = canonical

    def __len__(self) -> int:
        return len(self.elements)
