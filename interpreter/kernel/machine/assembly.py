"""A machine program laid out as one integer array (the header, then the sections: see
`kernel.machine.records`) with the address of the machine's entry point in this process, and
what the Python side keeps beside it to pack and unpack states and to raise an error the
machine recorded. Every search on the machine starts from `build`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ...compiler import CompiledPuzzle
from ...compiler.families import GeneralFamily
from .entry import ADDRESS  # the machine, compiled once (or loaded from the cache)
from .program import Program, program_of
from .records import (
    EFFECT,
    EFFECT_CYCLE,
    EFFECT_TOGGLE,
    ERR_VALUES,
    F_EFFECTS_FROM,
    F_EFFECTS_TO,
    FAMILY,
    HEADER,
    SECTIONS,
    WS_ERR,
)


@dataclass(frozen=True)
class MachineProgram:
    """What the machine runs: the program as one integer array, and what the Python side
    needs around it (to pack and unpack states, to raise an error found during a search)."""

    program: Program
    array: Any  # numpy int64 array: see machine.HEADER and machine.SECTIONS
    start: tuple[int, ...]

    @property
    def words(self) -> int:
        return self.program.words

    @property
    def bits(self) -> int:
        return self.program.bits

    def unpack(self, words: tuple[int, ...] | list[int]) -> bytes:
        return self.program.unpack(list(words))

    def raise_error(self, error: Any) -> None:
        """Raise the error the machine stopped on (`error`: its number and values)."""
        site = self.program.errors[int(error[0]) - 1]
        values = tuple(int(v) for v in error[2 : 2 + int(error[1])])
        site.raise_it(values, self.program.compiled.puzzle.board)

    def raise_recorded(self, ws: Any) -> None:
        """Raise the error recorded in a workspace of this program, as the Python engine does."""
        at = int(self.array[WS_ERR])
        self.raise_error(ws[at : at + 4])


def assemble(p: Program) -> np.ndarray:
    """The program's header and sections as one integer array (section s is
    mp[mp[s]:mp[s + 1]]), with the workspace's parts laid out after each other."""
    s = p.s
    size = len(s["field_word"])
    levels = max([1, *(len(f.bound_by_actions) for f in p.compiled.families if isinstance(f, GeneralFamily))])
    cells, pieces, places = p.cells, p.pieces, len(s["place_offset"])
    most_values = max(1, cells, places, len(s["number_counters"]), pieces + 1)
    parts = [
        ("ws_state", size),
        ("ws_child", size),
        ("ws_base", size),
        ("ws_env", p.env_size),
        ("ws_stack", p.stack_size),
        ("ws_bags", 2 * (pieces + 1)),
        ("ws_err", 1 + ERR_VALUES),
        ("ws_values", levels * most_values),
        ("ws_index", levels),
        ("ws_count", levels),
        ("ws_kinds", 4 * (pieces + 1)),
        ("ws_parent", p.words),
        ("ws_input", p.words),
        ("ws_rows", 1),
        ("ws_costs", 1),
        ("ws_orders", 1),
        ("ws_start", 1),
        ("ws_image", size),
        ("ws_trial", p.words),
        ("ws_log", 2 * _log_size(p)),
        ("ws_logged", 1),
        ("ws_paths", 1 + 2 * cells),
        ("ws_memo", 2 << p.memo_bits if p.memo_places or p.memo_loads else 0),
        ("ws_picked", p.most_picked),
    ]
    header = {
        "entry": ADDRESS,
        "size": size,
        "words": p.words,
        "cells": cells,
        "pieces": pieces,
        "places": places,
        "counters": len(s["counter_offset"]),
        "rows": p.rows,
        "cols": p.cols,
        "heuristic": p.heuristic,
        "families": len(s["families"]) // FAMILY,
        "levels": levels,
        "most_values": most_values,
        "memo_places": p.memo_places,
        "memo_loads": p.memo_loads,
        "symmetries": p.symmetries,
    }
    at = 0
    for name, length in parts:
        header[name] = at
        at += length
    header["ws_size"] = at
    first = len(HEADER) + len(SECTIONS) + 1
    starts = [first]
    for name in SECTIONS:
        starts.append(starts[-1] + len(s[name]))
    head = np.array([header[name] for name in HEADER] + starts, dtype=np.int64)
    return np.concatenate([head, *(np.asarray(s[name], dtype=np.int64).reshape(-1) for name in SECTIONS)])


def _log_size(p: Program) -> int:
    """A bound on the fields one move writes: its form's (at most the whole state, or a
    carry's two places and the carrier), then each effect's (a toggle: every cell)."""
    size = len(p.s["field_word"])
    most = 0
    families, effects = p.s["families"], p.s["effects"]
    for f in range(0, len(families), FAMILY):
        writes = 0
        for e in range(families[f + F_EFFECTS_FROM], families[f + F_EFFECTS_TO]):
            kind = effects[e * EFFECT]
            if kind == EFFECT_CYCLE:
                writes += effects[e * EFFECT + 2] - effects[e * EFFECT + 1]
            else:
                writes += p.cells if kind == EFFECT_TOGGLE else 8
        most = max(most, writes)
    return size + 2 * p.pieces + most + 16


@lru_cache(maxsize=4)
def build(compiled: CompiledPuzzle) -> MachineProgram:
    program = program_of(compiled)
    array = assemble(program)
    return MachineProgram(program, array, tuple(program.pack(compiled.start)))
