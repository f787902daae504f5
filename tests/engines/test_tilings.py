"""Tilings on every engine that answers them: the Python exact cover, the kernel's, the
CP-SAT solver and the state-space walk of the same spec find the same tilings, which are the
independent plain solver's (tests/plain/pentominoes.py, written without reading puzint's
code)."""

from __future__ import annotations

import pytest
from puzint.runner import load, search
from puzint.search import Limits
from puzint.search.depth import all_goal_states

from tests.conftest import SPECS, compiled_from
from tests.engines.test_fillings import ENGINE_NAMES, _text, boards
from tests.plain import pentominoes

DOMINOES = "".join(f"piece {s} shape:\n    {s} {s}\n" for s in "ABCD")
RING = "board:\n    _ _ _\n    _ . _\n    _ _ _\n" + DOMINOES + "tile cells with A, B, C, D turned\n"


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_pentominoes_on_3_x_20_are_the_plain_solver_s_eight(engine: str) -> None:
    text = (SPECS / "pentominoes.puz").read_text().replace("symmetry mirror, flip\n", "")  # every tiling listed
    compiled = compiled_from(text.replace("rows = 6", "rows = 3").replace("cols = 10", "cols = 20"))
    assert boards(compiled, engine) == {"".join(rows) for rows in pentominoes.tilings(3, 20)}


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_every_engine_finds_the_state_space_walk_s_tilings_of_a_board_with_a_hole(engine: str) -> None:
    compiled = compiled_from(RING)
    walked = {_text(compiled, path[-1][1]) for path in all_goal_states(compiled, Limits(), [0])}
    assert len(walked) == 2 * 24  # a ring of 8 squares has 2 domino tilings; the dominoes are labelled
    assert boards(compiled, engine) == walked


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_dominoes_on_2_x_4_lie_in_five_ways(engine: str) -> None:
    compiled = compiled_from("board grid 2 x 4\n" + DOMINOES + "tile cells with A, B, C, D turned\n")
    assert len(boards(compiled, engine)) == 5 * 24  # the 2 x n domino tilings are Fibonacci numbers


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_search_any_says_whether_a_tiling_is_the_only_one(engine: str) -> None:
    result = search(compiled_from(RING + "search any\n"), engine=engine)
    assert result.status == "solved" and result.unique is False
    unique = compiled_from(
        "board grid 2 x 2\npiece A shape:\n    A A\n    A .\npiece B shape:\n    B\ntile cells with A, B\nsearch any\n"
    )
    found = search(unique, engine=engine)
    assert found.status == "solved" and found.unique is True
    assert _text(unique, found.path[-1][1]) == "AAAB"


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_board_the_dominoes_cannot_cover_has_no_tiling(engine: str) -> None:
    dominoes = "".join(f"piece {s} shape:\n    {s} {s}\n" for s in "ABCDEFG")
    corners_cut = "board:\n    . _ _ _\n    _ _ _ _\n    _ _ _ _\n    _ _ _ .\n"  # two squares of one colour
    compiled = compiled_from(corners_cut + dominoes + "tile cells with A, B, C, D, E, F, G turned\n")
    result = search(compiled, engine=engine)
    assert result.status == "no-solution"


def test_a_shape_turned_and_flipped_lies_in_each_of_its_different_ways() -> None:
    compiled = load(SPECS / "pentominoes.puz")
    ways = {compiled.puzzle.symbol(p.code): len(p.ways) for p in compiled.tiling.form.pieces}  # type: ignore[union-attr]
    assert ways == {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1, "Y": 8, "Z": 4}
