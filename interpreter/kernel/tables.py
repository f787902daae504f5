"""A compiled puzzle as the integer tables the kernel runs, or the reason it cannot be.

The tables are the rewrite instances of `compiler.rewrite`, flattened into arrays (each
instance's checks, occupied cells, equal pairs, writes and copies as ranges of shared
arrays), and grouped by key content and cell exactly as the Python successor function groups
them, so that both engines give the successors in the same order and find the same solution.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ..compiler import CompiledPuzzle
from ..compiler.families import SlideFamily
from ..compiler.rewrite import key_groups
from ..model.puzzle import ANY

if TYPE_CHECKING:
    import numpy as np

SLIDE_MODES = ("step", "slide", "until")
WORD = 63  # bits a packed state may use (one word, the top bit kept free)


@dataclass(frozen=True)
class Tables:
    bits: int
    cells: int
    arrays: tuple  # type: ignore[type-arg]  # what kernel.core.successors unpacks
    start: int
    goal_mask: int
    goal_value: int

    @property
    def most_successors(self) -> int:
        """A bound on one state's successors: one per rewrite instance, one per ray cell."""
        return len(self.arrays[4]) + len(self.arrays[5]) + len(self.arrays[26]) + 1

    def pack(self, state: bytes) -> int:
        word = 0
        for cell in range(self.cells):
            word |= state[cell] << (cell * self.bits)
        return word

    def unpack(self, word: int) -> bytes:
        mask = (1 << self.bits) - 1
        return bytes((word >> (cell * self.bits)) & mask for cell in range(self.cells))


def why_not(compiled: CompiledPuzzle) -> str | None:
    """Why the kernel cannot run this puzzle (None: it can)."""
    if compiled.safety.anything:
        return "safety rules, which the kernel does not run yet"
    if compiled.layout.size != compiled.cells or compiled.puzzle.has_blocks:
        return "counters, places or blocks, which the kernel does not run yet"
    if not all(_plain_slide(f) for f in compiled.families):
        return "moves other than plain rewrites, steps and slides (conditions, actions, carries)"
    goal = compiled.puzzle.goal
    if goal.cells is None or goal.places or goal.conditions:
        return "a goal other than a pattern of cells"
    if compiled.cells * _bits(compiled) > WORD:
        return f"a state of {compiled.cells * _bits(compiled)} bits (the kernel packs a state into {WORD})"
    return None


def _plain_slide(family: object) -> bool:
    return isinstance(family, SlideFamily) and family.guard is None and not family.shapes


def _bits(compiled: CompiledPuzzle) -> int:
    codes = len(compiled.puzzle.parts)  # every code a cell can hold is below this
    return max(1, (codes - 1).bit_length())


@lru_cache(maxsize=4)  # a count up to symmetry runs several searches of one puzzle
def build(compiled: CompiledPuzzle) -> Tables:
    import numpy as np  # only when a search runs on the kernel: start-up stays small

    assert why_not(compiled) is None
    cells, bits = compiled.cells, _bits(compiled)
    keyed, unkeyed = key_groups(compiled.instances, cells, compiled.rarity)
    key_codes = [code for code, _ in keyed]
    group_start = [0]
    group_items: list[int] = []
    for _, by_cell in keyed:
        for at_cell in by_cell:
            group_items.extend(inst[5] for inst, _ in at_cell)
            group_start.append(len(group_items))
    columns: dict[str, list[int]] = {name: [] for name in ("check", "occupied", "same", "write", "copy")}
    starts: dict[str, list[int]] = {name: [0] for name in columns}
    pairs: dict[str, list[tuple[int, int]]] = {"check": [], "same": [], "write": [], "copy": []}
    cells_only: list[int] = []
    for checks, occupied, same, writes, copies, _ in compiled.instances:
        pairs["check"].extend(checks)
        cells_only.extend(occupied)
        pairs["same"].extend(same)
        pairs["write"].extend(writes)
        pairs["copy"].extend(copies)
        for name, items in (("check", checks), ("occupied", occupied), ("same", same), ("write", writes)):
            starts[name].append(starts[name][-1] + len(items))
        starts["copy"].append(starts["copy"][-1] + len(copies))

    def ints(values: list[int]) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    def column(name: str, side: int) -> np.ndarray:
        return ints([pair[side] for pair in pairs[name]])

    arrays = (
        bits,
        cells,
        ints(key_codes),
        ints(group_start),
        ints(group_items),
        ints([inst[5] for inst, _ in unkeyed]),
        ints(starts["check"]),
        column("check", 0),
        column("check", 1),
        ints(starts["occupied"]),
        ints(cells_only),
        ints(starts["same"]),
        column("same", 0),
        column("same", 1),
        ints(starts["write"]),
        column("write", 0),
        column("write", 1),
        ints(starts["copy"]),
        column("copy", 0),
        column("copy", 1),
    )
    arrays += _slides(compiled, ints)
    goal = compiled.puzzle.goal.cells
    assert goal is not None
    mask = value = 0
    for cell, code in enumerate(goal):
        if code != ANY:
            mask |= ((1 << bits) - 1) << (cell * bits)
            value |= code << (cell * bits)
    tables = Tables(bits, cells, arrays, 0, mask, value)
    return Tables(bits, cells, arrays, tables.pack(compiled.start), mask, value)


def _slides(compiled: CompiledPuzzle, ints: Callable[[list[int]], np.ndarray]) -> tuple:  # type: ignore[type-arg]
    """The step and slide moves: for each, the codes that move (in the order Python tries
    them), its mode, and every cell's ray in each direction, as ranges of one array."""
    code_start, ray_start = [0], [0]
    codes: list[int] = []
    modes: list[int] = []
    directions: list[int] = []
    ray_base: list[int] = []
    ray_cells: list[int] = []
    for family in compiled.families:
        assert isinstance(family, SlideFamily)
        codes.extend(family.codes)
        code_start.append(len(codes))
        modes.append(SLIDE_MODES.index(family.mode))
        directions.append(len(family.directions))
        ray_base.append(len(ray_start) - 1)
        for cell in range(compiled.cells):
            for d in range(len(family.directions)):
                ray_cells.extend(family.ray(cell, d))
                ray_start.append(len(ray_cells))
    return (
        ints(code_start),
        ints(codes),
        ints(modes),
        ints(directions),
        ints(ray_base),
        ints(ray_start),
        ints(ray_cells),
    )
