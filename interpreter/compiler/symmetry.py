"""Declared symmetries, compiled: the group they generate, a check that the moves and the goal
really are symmetric, and fast functions mapping a state to its image and to a canonical form
(the least image), so that the engine can count states and solutions up to symmetry."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import itemgetter

from ..errors import Diagnostic, SpecError
from ..model import Lit, Puzzle, Symmetry

Map = tuple[tuple[int, ...], tuple[int, ...]]  # (cell permutation, code mapping)


@dataclass(frozen=True)
class Element:
    """One element of the symmetry group, with a fast state -> image function."""

    name: str
    cells: tuple[int, ...]
    codes: tuple[int, ...]
    image: Callable[[bytes], bytes]


def _image_function(cells: tuple[int, ...], codes: tuple[int, ...]) -> Callable[[bytes], bytes]:
    inverse = [0] * len(cells)
    for i, j in enumerate(cells):
        inverse[j] = i
    table = bytes(codes) + bytes(range(len(codes), 256))
    if len(cells) == 1:
        return lambda state: state.translate(table)
    gather = itemgetter(*inverse)
    return lambda state: bytes(gather(state.translate(table)))


def generate(symmetries: Iterable[Symmetry], size: int, piece_count: int) -> list[tuple[str, Map]]:
    """Close the declared symmetries under composition; the identity comes first."""
    identity: Map = (tuple(range(size)), tuple(range(piece_count + 1)))
    group: dict[Map, str] = {identity: "identity"}
    generators = [((s.cells, s.codes), s.name) for s in symmetries]
    frontier = [identity]
    while frontier:
        following = []
        for element in frontier:
            for (g_cells, g_codes), g_name in generators:
                cells = tuple(g_cells[c] for c in element[0])
                codes = tuple(g_codes[c] for c in element[1])
                if (cells, codes) not in group:
                    name = g_name if group[element] == "identity" else f"{group[element]} then {g_name}"
                    group[(cells, codes)] = name
                    following.append((cells, codes))
        frontier = following
    return [(name, m) for m, name in group.items()]


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


class SymmetryGroup:
    def __init__(self, puzzle: Puzzle, instance_keys: set[tuple[object, ...]], start: bytes):
        self.declared = puzzle.symmetries
        elements = generate(puzzle.symmetries, puzzle.board.size, len(puzzle.pieces))
        goal = {(i, c.code) for i, c in enumerate(puzzle.goal) if isinstance(c, Lit)}
        errors = []
        for sym in puzzle.symmetries:
            broken = next(
                (k for k in instance_keys if map_instance_key(k, sym.cells, sym.codes) not in instance_keys), None
            )
            if broken is not None:
                errors.append(
                    Diagnostic(
                        sym.pos,
                        f"'{sym.name}' is not a symmetry of this puzzle: it turns some move into one no rule allows",
                        "a symmetry that maps every move to a move",
                    )
                )
        if errors:
            raise SpecError(errors)
        self.elements = [
            Element(name, cells, codes, _image_function(cells, codes)) for name, (cells, codes) in elements
        ]
        # The elements that fix the start and the goal: they map solutions to solutions.
        self.solution_symmetries = [
            e for e in self.elements if e.image(start) == start and {(e.cells[i], e.codes[v]) for i, v in goal} == goal
        ]
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
