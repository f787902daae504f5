"""A compiled puzzle as the integer tables the kernel runs, or the reason it cannot be.

The tables are the rewrite instances of `compiler.rewrite` (each instance's checks, occupied
cells, equal pairs, writes and copies as ranges of shared sections), grouped by key content
and cell exactly as the Python successor function groups them, then the other move families
(steps and slides, toggles) in the spec's order, so that both engines give the successors in
the same order and find the same solution. All of it is one integer array, in the sections
`core.SECTIONS` names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ...compiler import CompiledPuzzle
from ...compiler.families import GeneralFamily, SlideFamily
from ...compiler.families.effects import toggle_areas
from ...compiler.rewrite import Instance, key_groups
from ...model.puzzle import ANY, Toggle

if TYPE_CHECKING:
    import numpy as np

SLIDE_MODES = ("step", "slide", "until", "until_piece")
SLIDE, TOGGLE = 0, 1  # the kinds of move family the kernel runs, after the rewrites
WORD = 63  # bits a packed state may use (one word, the top bit kept free)


@dataclass(frozen=True)
class Tables:
    """What the kernel's searches run: the word tables of a plain puzzle, or, for any other,
    a machine program (`machine`, with empty word tables) and its workspace's size. Either
    way a state is one word, cell c at bit c * bits."""

    bits: int  # of a cell
    cells: int
    state_bits: int  # of a whole state
    program: np.ndarray  # what kernel.tables.core runs: see core.SECTIONS
    most_successors: int  # a bound on one state's successors (a machine program: a first guess)
    start: int
    goal_mask: int
    goal_value: int
    machine: np.ndarray  # a machine program (kernel.machine.program), or core.NO_MACHINE
    unpack: Callable[[int], bytes]  # a state's word as the bytes of the Python layout
    pack: Callable[[bytes], int]  # and back

    def workspace(self) -> np.ndarray:
        import numpy as np

        from ..machine import machine

        return machine.workspace(self.machine) if self.machine.ndim == 1 else np.zeros(1, dtype=np.int64)


def why_not(compiled: CompiledPuzzle, words: int = 1) -> str | None:
    """Why the kernel cannot run this puzzle with states of at most `words` words (None: it
    can): the word tables, or else the machine."""
    if why_not_tables(compiled) is None:
        return None
    from ..machine.program import why_not as machine_why_not

    unfit = machine_why_not(compiled)
    if unfit is not None:
        return unfit
    bits = _program_bits(compiled)
    if bits > words * WORD:
        return f"a state of {bits} bits (the kernel packs a state into {words * WORD})"
    return None


def _program_bits(compiled: CompiledPuzzle) -> int:
    from ..machine.program import program_of

    return program_of(compiled).bits


def why_not_tables(compiled: CompiledPuzzle) -> str | None:
    """Why the word tables cannot run this puzzle (None: they can): what it has that they do
    not take (the machine runs it instead)."""
    if compiled.safety.anything:
        return "safety rules"
    if compiled.layout.size != compiled.cells or compiled.puzzle.has_blocks:
        return "counters, places or blocks"
    if not all(_plain_slide(f) or _plain_toggle(f) for f in compiled.families):
        return "moves other than plain rewrites, steps, slides and toggles (conditions, other actions, carries)"
    goal = compiled.puzzle.goal
    if goal.cells is None or goal.places or goal.conditions:
        return "a goal other than a pattern of cells"
    if compiled.cells * _bits(compiled) > WORD:
        return f"a state of {compiled.cells * _bits(compiled)} bits (the kernel packs a state into {WORD})"
    return None


def _plain_slide(family: object) -> bool:
    return isinstance(family, SlideFamily) and family.guard is None and not family.shapes and not family.repeated


def _plain_toggle(family: object) -> bool:
    """A move made only of toggles around one anchor cell, with no condition or cost."""
    if not isinstance(family, GeneralFamily):
        return False
    move = family.move
    return (
        move.form is None
        and move.guard is None
        and move.cost is None
        and bool(move.actions)
        and all(isinstance(a, Toggle) for a in move.actions)
        and len(family.bound_by_actions) == 1
    )


def _bits(compiled: CompiledPuzzle) -> int:
    codes = len(compiled.puzzle.parts)  # every code a cell can hold is below this
    return max(1, (codes - 1).bit_length())


@lru_cache(maxsize=4)  # a count up to symmetry runs several searches of one puzzle
def build(compiled: CompiledPuzzle, backward: bool = False) -> Tables:
    """The tables of the puzzle's moves, or (`backward`, for puzzles whose moves can all be
    undone) of its moves run backwards, as expand_back gives the predecessors."""
    from . import core  # only when a search runs on the kernel: start-up stays small

    assert why_not(compiled) is None
    if why_not_tables(compiled) is not None:
        assert not backward
        return _machine_tables(compiled)
    cells, bits = compiled.cells, _bits(compiled)
    instances = compiled.back_instances if backward else compiled.instances
    sections = _rewrites(compiled, bits, instances) | _slides(compiled, backward) | _toggles(compiled)
    toggles = sum(1 for kind in sections["kinds"] if kind == TOGGLE)
    most = len(sections["group_items"]) + len(sections["unkeyed"]) + len(sections["ray_cells"]) + toggles * cells + 1
    goal = compiled.puzzle.goal.cells
    assert goal is not None
    start = _pack(dict(enumerate(compiled.start[:cells])), bits)
    mask = _pack({cell: (1 << bits) - 1 for cell, code in enumerate(goal) if code != ANY}, bits)
    value = _pack({cell: code for cell, code in enumerate(goal) if code != ANY}, bits)

    def unpacked(word: int) -> bytes:
        return bytes((word >> (cell * bits)) & ((1 << bits) - 1) for cell in range(cells))

    program = core.program(bits, cells, sections)

    def packed(state: bytes) -> int:
        return _pack(dict(enumerate(state[:cells])), bits)

    return Tables(bits, cells, bits * cells, program, most, start, mask, value, core.NO_MACHINE, unpacked, packed)


def _machine_tables(compiled: CompiledPuzzle) -> Tables:
    """A puzzle of one word run by the machine: empty word tables, and the program."""
    from ..machine.assembly import build as build_program
    from . import core

    machine = build_program(compiled)
    empty: dict[str, list[int]] = {name: [] for name in core.SECTIONS}
    empty["group_start"] = [0]
    program = core.program(machine.program.code_bits, compiled.cells, empty)
    (start,) = machine.start
    return Tables(
        machine.program.code_bits,
        compiled.cells,
        machine.bits,
        program,
        64,
        start,
        0,
        0,
        machine.array,
        lambda word: machine.unpack([word]),
        lambda state: machine.program.pack(state)[0],
    )


def _rewrites(compiled: CompiledPuzzle, bits: int, instances: list[Instance]) -> dict[str, list[int]]:
    """The plain rewrite instances (forwards, or backwards): grouped by key content and cell
    as `key_groups` groups them; each one's checks and writes as a mask and a value, its
    occupied cells, equal pairs and copies as ranges, at the place its number says."""
    from . import core

    cells = compiled.cells
    keyed, unkeyed = key_groups(instances, cells, compiled.rarity)
    out: dict[str, list[int]] = {"key_codes": [code for code, _ in keyed], "group_start": [0], "group_items": []}
    for _, by_cell in keyed:
        for at_cell in by_cell:
            out["group_items"].extend(inst[5] for inst, _ in at_cell)
            out["group_start"].append(len(out["group_items"]))
    out["unkeyed"] = [inst[5] for inst, _ in unkeyed]
    for name in ("instances", "same_a", "same_b", "copy_cell", "copy_source"):
        out[name] = []
    full, top = (1 << bits) - 1, 1 << (bits - 1)
    numbered = {inst[5]: inst for inst in instances}
    never: Instance = ((), (), (), (), (), -1)  # a number no instance has (no group lists it)
    for i in range(len(compiled.instances)):
        checks, occupied, same, writes, copies, _ = numbered.get(i, never)
        words = [0] * core.INSTANCE
        words[core.CHECK_MASK] = _pack({cell: full for cell, _ in checks}, bits)
        words[core.CHECK_VALUE] = _pack(dict(checks), bits)
        words[core.OCCUPIED_LOW] = _pack({cell: top - 1 for cell in occupied}, bits)
        words[core.OCCUPIED_HIGH] = _pack({cell: top for cell in occupied}, bits)
        words[core.WRITE_MASK] = _pack({cell: full for cell, _ in writes}, bits)
        words[core.WRITE_VALUE] = _pack(dict(writes), bits)
        words[core.SAME_FROM] = len(out["same_a"])
        words[core.COPY_FROM] = len(out["copy_cell"])
        for (a, b), first, second in (
            *((pair, "same_a", "same_b") for pair in same),
            *((pair, "copy_cell", "copy_source") for pair in copies),
        ):
            out[first].append(a)
            out[second].append(b)
        words[core.SAME_TO] = len(out["same_a"])
        words[core.COPY_TO] = len(out["copy_cell"])
        out["instances"].extend(words)
    return out


def _pack(codes: dict[int, int], bits: int) -> int:
    """Cells' codes as one word, cell c at bit c * bits (the cells not given 0)."""
    return sum(code << (cell * bits) for cell, code in codes.items())


def _slides(compiled: CompiledPuzzle, backward: bool) -> dict[str, list[int]]:
    """The step and slide moves: for each, the codes that move (in the order Python tries
    them), its mode, and every cell's ray in each direction (backwards: the cells a piece
    may have come from), as ranges of one array."""
    code_start, ray_start = [0], [0]
    codes: list[int] = []
    modes: list[int] = []
    directions: list[int] = []
    ray_base: list[int] = []
    ray_cells: list[int] = []
    for family in compiled.families:
        if not isinstance(family, SlideFamily):
            continue
        codes.extend(family.codes)
        code_start.append(len(codes))
        modes.append(SLIDE_MODES.index(family.mode))
        directions.append(len(family.directions))
        ray_base.append(len(ray_start) - 1)
        for cell in range(compiled.cells):
            for d in range(len(family.directions)):
                ray_cells.extend(family.back_ray(cell, d) if backward else family.ray(cell, d))
                ray_start.append(len(ray_cells))
    return {
        "code_start": code_start,
        "codes": codes,
        "modes": modes,
        "directions": directions,
        "ray_base": ray_base,
        "ray_start": ray_start,
        "ray_cells": ray_cells,
    }


def _toggles(compiled: CompiledPuzzle) -> dict[str, list[int]]:
    """Which kind each move family is and its number among its kind (the kernel tries the
    families in the spec's order, as Python does); for each toggle family its toggles, and
    for each toggle the two codes it swaps and, for each anchor cell, the cells it changes
    (or that it does not fit there). Where the two codes are all a cell can hold, a toggle
    is one exclusive-or of the state with the area's mask."""
    kinds: list[int] = []
    numbers: list[int] = []
    counted = [0, 0]
    toggle_start = [0]
    first: list[int] = []
    second: list[int] = []
    area_base: list[int] = []
    area_start = [0]
    area_cells: list[int] = []
    fits: list[int] = []
    exact: list[int] = []
    area_xor: list[int] = []
    bits, codes = _bits(compiled), set(range(len(compiled.puzzle.parts)))
    for family in compiled.families:
        kind = SLIDE if isinstance(family, SlideFamily) else TOGGLE
        kinds.append(kind)
        numbers.append(counted[kind])
        counted[kind] += 1
        if kind == SLIDE:
            continue
        assert isinstance(family, GeneralFamily)
        board = compiled.puzzle.board
        assert board is not None
        for action in family.move.actions:
            assert isinstance(action, Toggle)
            areas = toggle_areas(board, action)
            first.append(action.first)
            second.append(action.second)
            exact.append(codes <= {action.first, action.second})
            area_base.append(len(area_start) - 1)
            for anchor in range(compiled.cells):
                area = areas[anchor]
                fits.append(area is not None)
                area_cells.extend(area or ())
                area_start.append(len(area_cells))
                flip = action.first ^ action.second
                area_xor.append(sum(flip << (cell * bits) for cell in area or ()))
        toggle_start.append(len(first))
    return {
        "kinds": kinds,
        "numbers": numbers,
        "toggle_start": toggle_start,
        "first": first,
        "second": second,
        "area_base": area_base,
        "area_start": area_start,
        "area_cells": area_cells,
        "fits": fits,
        "exact": exact,
        "area_xor": area_xor,
    }
