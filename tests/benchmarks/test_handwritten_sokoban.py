"""benchmarks/handwritten_sokoban.py, the plain Sokoban solver, checked on its own (against the
figures the docs give for Microban's first levels and against the plain solver of tests/plain,
which prunes nothing); then puzint's answers for Microban levels read with `level n from
"microban.xsb"` checked against it."""

from __future__ import annotations

import pytest
from puzint.runner import load, search

from benchmarks import handwritten_sokoban as plain
from tests.conftest import SPECS
from tests.plain import sokoban

LEVELS = plain.xsb_levels((SPECS / "microban.xsb").read_text(encoding="utf-8"))


def test_the_collection_file_has_microban_s_155_levels() -> None:
    assert len(LEVELS) == 155
    assert LEVELS[0] == sokoban.MICROBAN[1] and LEVELS[2] == sokoban.MICROBAN[3]
    assert LEVELS[43] == ["#####", "#@$.#", "#####"]  # 'Duh!', under its title line


# docs/language.md: level 1 in 33 moves and 8 pushes, level 2 in 16 and 3, level 3 in 41 and 13
@pytest.mark.parametrize(("n", "moves", "pushes"), [(1, 33, 8), (2, 16, 3), (3, 41, 13)])
def test_the_plain_solver_gives_the_figures_the_docs_give(n: int, moves: int, pushes: int) -> None:
    level = plain.read_level(LEVELS[n - 1])
    assert (plain.fewest_moves(level).steps, plain.fewest_pushes(level).steps) == (moves, pushes)


@pytest.mark.parametrize("n", [4, 5, 9, 17, 44])
def test_the_plain_solver_agrees_with_a_search_that_prunes_nothing(n: int) -> None:
    level = plain.read_level(LEVELS[n - 1])
    room = LEVELS[n - 1]
    assert plain.fewest_moves(level).steps == sokoban.shortest_moves(room)
    assert plain.fewest_pushes(level).steps == sokoban.fewest_pushes(room)


def test_dead_squares_are_the_ones_no_box_can_leave_for_a_target() -> None:
    # a corridor closed at both ends, the target in the middle: its two ends are dead
    level = plain.read_level(["#######", "#@ .$ #", "#######"])
    assert plain.live_squares(level) == {(1, 2), (1, 3), (1, 4)}
    assert plain.fewest_moves(level).steps is None  # the box would have to be pulled
    stuck = plain.read_level(["#####", "#@$.#", "#####"])
    assert plain.fewest_moves(stuck).steps == 1 and plain.fewest_pushes(stuck).steps == 1


def _puzint(n: int, metric: str) -> int | None:
    result = search(load(SPECS / "microban.puz", {"n": str(n), "metric": metric}), engine="python")
    return result.length if metric == "moves" else result.cost  # type: ignore[return-value]


@pytest.mark.parametrize("n", [1, 2, 9, 44])
def test_puzint_reading_the_collection_file_solves_as_the_plain_solver(n: int) -> None:
    level = plain.read_level(LEVELS[n - 1])
    assert _puzint(n, "moves") == plain.fewest_moves(level).steps
    assert _puzint(n, "pushes") == plain.fewest_pushes(level).steps


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 17])
def test_puzint_reading_the_collection_file_solves_larger_levels_as_the_plain_solver(n: int) -> None:
    level = plain.read_level(LEVELS[n - 1])
    assert _puzint(n, "moves") == plain.fewest_moves(level).steps
    assert _puzint(n, "pushes") == plain.fewest_pushes(level).steps
