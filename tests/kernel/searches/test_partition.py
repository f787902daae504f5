"""The shares of a breadth-first search spread over workers (kernel.searches.partition), run
here in one process, one layer at a time as the workers run them: the same layers, counts
and goals as the one-core kernel's search, whatever the number of shares; every state in
exactly one share; the solution read back across the shares a walk of legal moves."""

from __future__ import annotations

import itertools

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.kernel.searches.breadth_first import explore
from puzint.kernel.searches.partition import LayerReport, Share, owner, share_of
from puzint.runner import load
from puzint.search import Limits

from tests.conftest import SPECS


def spread(
    compiled: CompiledPuzzle, parts: int, counting: bool = False, room: int = 10**9
) -> tuple[list[int], list[Share], list[list[LayerReport]]]:
    """Every layer, made by `parts` shares (each taking at most `room` states a layer); the
    layer sizes, the shares and each layer's reports."""
    shares = [Share(compiled, p, parts, counting, orbits=False) for p in range(parts)]
    sizes, reports = [1], []
    while True:
        sent = [share.expand(lambda: None)[0] for share in shares]
        layer = [shares[q].absorb([sent[p][q] for p in range(parts)], room) for q in range(parts)]
        made = sum(r.made for r in layer)
        if not made:
            return sizes, shares, reports
        sizes.append(made)
        reports.append(layer)
        if any(r.full for r in layer):  # a share filled its room: the layer is not whole
            return sizes, shares, reports


@pytest.mark.parametrize(
    ("spec", "params"),
    [
        ("amida", {"bottom": "FBDEAHCG"}),  # every move undone by a move: the table keeps three layers
        ("peg_triangle", {}),  # moves that cannot be undone: the table keeps every state
        ("knights", {}),
        ("jealous_husbands", {}),  # on the machine
    ],
)
@pytest.mark.parametrize("parts", [1, 2, 3])
def test_the_same_layers_as_one_core(spec: str, params: dict[str, str], parts: int) -> None:
    compiled = load(SPECS / f"{spec}.puz", params)
    alone = explore(compiled, Limits(), exhaustive=True)
    sizes, shares, reports = spread(compiled, parts)
    assert sizes == alone.layers and sum(sizes) == alone.reachable
    assert sum(r.goals for layer in reports for r in layer) + compiled.is_goal(compiled.start) == alone.reachable_goals
    assert sum(share.stored for share in shares) == alone.reachable
    for part, share in enumerate(shares):
        assert all(owner(state, parts) == part for state in share.states[: share.stored])


@pytest.mark.parametrize(("spec", "paths"), [("frog", 2), ("jealous_husbands", 486), ("knights", None)])
def test_path_counts_added_across_shares(spec: str, paths: int | None) -> None:
    compiled = load(SPECS / f"{spec}.puz", {})
    alone = explore(compiled, Limits(), count=True)
    assert paths is None or alone.count == paths
    _, _, reports = spread(compiled, 3, counting=True)
    first = next(layer for layer in reports if any(r.goals for r in layer))
    assert sum(r.goal_ways for r in first) == alone.count


def test_the_solution_read_back_across_the_shares() -> None:
    """From the goal's reference, each state's parent from its share: a walk of legal moves from
    the start to the goal, as long as the shortest."""
    compiled = load(SPECS / "frog.puz", {})
    _sizes, shares, reports = spread(compiled, 3)
    depth, goal = next((d, r.first_goal) for d, layer in enumerate(reports, 1) for r in layer if r.goals)
    chain = []
    while goal is not None:
        part, number = share_of(goal)
        state, goal = shares[part].at(number)
        chain.append(shares[part].tables.unpack(state))
    chain.reverse()
    assert chain[0] == compiled.start and compiled.is_goal(chain[-1]) and len(chain) == depth + 1 == 16
    for before, after in itertools.pairwise(chain):
        assert after in {child for child, _ in compiled.expand(before)}


def test_a_share_stops_at_its_room() -> None:
    """A layer takes at most the room each share is given (the run's state limit, shared)."""
    compiled = load(SPECS / "amida.puz", {"bottom": "FBDEAHCG"})
    sizes, _, reports = spread(compiled, 2, room=100)
    assert any(r.full for r in reports[-1]) and all(r.made <= 100 for layer in reports for r in layer)
    assert 100 < sum(sizes) < 40_320


def test_each_state_has_one_owner() -> None:
    owners = {owner(state, 5) for state in range(10_000)}
    assert owners == set(range(5))
