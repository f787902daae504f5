"""The method chosen for one shortest solution when a heuristic guides it and none is named
(plan.method): IDA* from the start where every move can be undone, the paths from the start
seldom meet, and A*'s room may fill; A* (and IDA* only once its room is full) elsewhere."""

from __future__ import annotations

import pytest
from puzint.plan.method import deepening_fits, tree_likeness
from puzint.runner import load, search

from tests.conftest import SPECS


@pytest.mark.parametrize(
    ("spec", "low", "high"),
    [
        ("fifteen", 0.9, 1.0),  # sliding tiles: the shortest cycle has 12 moves
        ("eight_puzzle", 0.8, 1.0),
        ("pocket_cube", 0.5, 0.8),  # turns of opposite faces commute
        ("rush_hour", 0.0, 0.1),  # cars move independently: every order of the same moves
        ("amida", 0.0, 0.1),
    ],
)
def test_how_tree_like_the_paths_from_the_start_are(spec: str, low: float, high: float) -> None:
    assert low <= tree_likeness(load(SPECS / f"{spec}.puz")) <= high


def test_ida_star_runs_from_the_start_where_a_star_s_room_may_fill() -> None:
    eight = load(SPECS / "eight_puzzle.puz")  # 181,440 arrangements, tree-like, every move undone
    assert deepening_fits(eight, 100_000, tables=False)
    assert not deepening_fits(eight, 1_000_000, tables=False)  # the room holds every arrangement: A*
    assert deepening_fits(eight, 1_000_000, tables=True)  # tables guide it: IDA* wherever it fits
    assert not deepening_fits(load(SPECS / "amida.puz"), 1, tables=True)  # its paths meet: A*
    assert not deepening_fits(load(SPECS / "rush_hour.puz"), 1, tables=True)  # moves not all undone


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_chosen_method_finds_the_shortest_solution(engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from puzint.search import limits as limits_module

    monkeypatch.setattr(limits_module, "DEFAULT_MAX_STATES", 100_000)
    result = search(load(SPECS / "eight_puzzle.puz"), engine=engine)
    assert (result.status, result.length) == ("solved", 31)
    assert result.method.startswith("IDA*") and "filled" not in result.method  # no A* first
