"""Distinct solutions up to move order, plainly and up to symmetry."""

from __future__ import annotations

from puzint.search import Limits
from puzint.trajectories import distinct_trajectories, extend, initial

from tests.conftest import SPECS, compiled_from


def report(text: str, **params: object):  # type: ignore[no-untyped-def]
    return distinct_trajectories(compiled_from(text, **params), Limits())


def test_frog_solutions_are_two_mirror_images() -> None:
    plain = report((SPECS / "frog.puz").read_text())
    assert (plain.solutions, plain.classes, plain.classes_up_to_symmetry) == (2, 2, None)
    symmetric = report((SPECS / "frog.puz").read_text() + "symmetry mirror + swap B W\n")
    assert (symmetric.classes, symmetric.classes_up_to_symmetry) == (2, 1)
    assert len(symmetric.representatives) == 1 and len(symmetric.representatives[0]) == 15


def test_independent_moves_in_either_order_are_one_trajectory() -> None:
    text = "board line 4\npiece A a\npiece C c\nstart A _ C _\ngoal _ A _ C\nmove step: ?p _ -> _ ?p along right\n"
    result = report(text)
    assert result.solutions == 2 and result.classes == 1


def test_knight_exchange_has_four_trajectories_two_up_to_mirror() -> None:
    result = report((SPECS / "knights.puz").read_text())
    assert (result.length, result.solutions, result.classes, result.classes_up_to_symmetry) == (16, 98496, 4, 2)
    for path in result.representatives:
        # each of the seed's two solutions has a knight step away and straight back
        compiled = compiled_from((SPECS / "knights.puz").read_text())
        tracks = initial(compiled)
        before = compiled.start
        for move, after in path:
            tracks = extend(compiled, tracks, move, before)
            before = after
        assert any(track[i] == track[i + 2] for _, track in tracks for i in range(len(track) - 2)), (
            "a temporary retreat"
        )
