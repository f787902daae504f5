"""A move family's rewrite placements looked up by their anchors on the kernel's machine
(`program._anchors`, `moves._picked`): each state tries only the placements anchored where it
holds their anchor's value, and gives the same successors, in the same order and with the
same costs, as the Python engine, which tries every placement (or its own index of them)."""

from __future__ import annotations

import numpy as np
import pytest
from puzint.compiler import CompiledPuzzle
from puzint.kernel import installed
from puzint.kernel.machine import calls
from puzint.kernel.machine.assembly import build
from puzint.kernel.machine.machine import workspace
from puzint.kernel.machine.records import F_ANCHORS, FAMILIES, FAMILY, NFAMILIES
from puzint.runner import search
from puzint.search import Limits

from tests.conftest import compiled_from
from tests.heuristics.test_pieces import exact_distances

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

ROOM = """
puzzle "a room"
board grid 3 x 5
piece M worker
piece B box
start:
    M _ B _ _
    _ B _ _ _
    _ _ _ B _
goal:
    ? ? ? ? ?
    ? ? ? ? B
    ? ? ? B B
search cheapest
move walk: M _ -> _ M along orthogonal cost 0
move push: M B _ -> _ M B along orthogonal cost 1
"""

CROWD = """
puzzle "a crowd"
board grid 3 x 4
piece A a
piece B b
start:
    A B A B
    B A B A
    A B A B
goal:
    A A A A
    A A B B
    B B B B
search cheapest
move swap: ?x ?y -> ?y ?x along right, down cost 2
"""


def anchored(compiled: CompiledPuzzle) -> list[bool]:
    """Whether each move family of the machine's program looks its placements up by anchor."""
    mp = build(compiled).array
    return [mp[mp[FAMILIES] + f * FAMILY + F_ANCHORS] >= 0 for f in range(mp[NFAMILIES])]


def machine_successors(compiled: CompiledPuzzle, state: bytes) -> list[tuple[bytes, int]]:
    machine = build(compiled)
    mp, ws = machine.array, workspace(machine.array)
    out = np.zeros((64, machine.words), dtype=np.uint64)
    costs = np.zeros(64, dtype=np.int64)
    calls.put(mp, ws, np.array(machine.program.pack(state), dtype=np.uint64))
    n = calls.expand_with(calls.EXPAND_COSTED, mp, ws, out, costs)
    assert n >= 0
    return [(machine.unpack(tuple(int(w) for w in out[j])), int(costs[j])) for j in range(n)]


@pytest.mark.parametrize(("spec", "looked_up"), [(ROOM, [True, True]), (CROWD, [False])])
def test_every_state_has_python_s_successors_in_python_s_order(spec: str, looked_up: list[bool]) -> None:
    compiled = compiled_from(spec)
    assert anchored(compiled) == looked_up  # a crowd of boxes: every placement is tried, in order
    states, _ = exact_distances(compiled)
    assert len(states) > 20
    for state in states:
        python = [(child, cost) for child, _, cost in compiled.expand_costed(state)]
        assert machine_successors(compiled, state) == python


@pytest.mark.parametrize("spec", [ROOM, CROWD])
def test_the_cheapest_solutions_are_python_s(spec: str) -> None:
    compiled = compiled_from(spec)
    for count in (False, True):
        python = search(compiled, count=count, engine="python", limits=Limits())
        kernel = search(compiled, count=count, engine="compiled", limits=Limits())
        assert (kernel.status, kernel.states, kernel.cost, kernel.count, kernel.path) == (
            python.status,
            python.states,
            python.cost,
            python.count,
            python.path,
        )
