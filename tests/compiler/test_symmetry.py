"""Declared symmetries: the group they generate, and the check that they really are ones."""

from __future__ import annotations

import pytest
from puzint.compiler.symmetry import generate
from puzint.engines import RunOptions
from puzint.errors import SpecError
from puzint.kernel import installed
from puzint.runner import search
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS, compiled_from

FROG = (SPECS / "frog.puz").read_text()
GRID = "board grid 3 x 3\npiece N knight\nstart N________\ngoal ________N\nmove hop: ?k _ -> _ ?k along knight\n"


def test_mirror_alone_is_not_a_symmetry_of_the_frogs() -> None:
    with pytest.raises(SpecError) as err:
        compiled_from(FROG + "symmetry mirror\n")
    (diag,) = err.value.diagnostics
    assert diag.message == "'mirror' is not a symmetry of this puzzle: it turns some move into one no rule allows"
    assert diag.pos.line == 18


def test_mirror_with_colour_swap_is() -> None:
    compiled = compiled_from(FROG + "symmetry mirror + swap B W\n")
    assert compiled.symmetry is not None and len(compiled.symmetry) == 2
    result = search(compiled, count=True, reach=True)
    assert (result.count, result.count_up_to_symmetry) == (2, 1)
    assert result.reachable == 72 and result.reachable_up_to_symmetry is not None
    assert result.reachable_up_to_symmetry * 2 >= result.reachable


@pytest.mark.parametrize(
    ("declared", "size"), [("mirror", 2), ("mirror, flip", 4), ("rotate", 4), ("rotate, mirror", 8)]
)
def test_group_sizes_on_a_square(declared: str, size: int) -> None:
    compiled = compiled_from(GRID.replace("goal ________N", "goal ?????????") + f"symmetry {declared}\n")
    assert compiled.symmetry is not None and len(compiled.symmetry) == size


def test_rotation_of_a_non_square_grid_is_a_half_turn() -> None:
    elements = generate([], 12, 2, 0)
    assert len(elements) == 1
    compiled = compiled_from(
        (SPECS / "knights.puz").read_text().replace("symmetry mirror", "symmetry rotate + swap B W")
    )
    assert compiled.symmetry is not None and len(compiled.symmetry) == 2


def test_canonical_form_is_the_least_image() -> None:
    compiled = compiled_from(GRID.replace("goal ________N", "goal ?????????") + "symmetry mirror\n")
    assert compiled.symmetry is not None
    left, right = bytes([1, 0, 0] + [0] * 6), bytes([0, 0, 1] + [0] * 6)
    assert compiled.symmetry.canonical(left) == compiled.symmetry.canonical(right) == min(left, right)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("symmetry flip", "a line has the symmetries mirror and reversal, not 'flip'"),
        ("symmetry swap B X", "unknown piece 'X'"),
        ("symmetry swap B", "swap names two pieces (or two places), e.g. swap B W"),
        ("symmetry cycle 1 9", "the board has no cell '9'"),
        ("symmetry cycle 1 2 1", "the cycle names '1' twice"),
        ("symmetry cycle 1", "a cycle names two cells or more, each going to the next"),
    ],
)
def test_bad_symmetries_are_reported(line: str, message: str) -> None:
    with pytest.raises(SpecError) as err:
        compiled_from(FROG + line + "\n")
    assert message in [d.message for d in err.value.diagnostics]


EXCHANGE = """
puzzle "exchange"
places left, right
piece A a
piece B b
start at left: A
start at right: B
goal at left: B
goal at right: A
move go: take ?p from ?a, put ?p on ?b
symmetry swap left right + swap A B
"""


def test_a_symmetry_of_places_and_pieces_fixes_a_goal_of_places() -> None:
    """The goal's piece counts go through the piece swap too: A first or B first, one the
    other's image (the goal was taken as not fixed, and both were counted)."""
    result = search(compiled_from(EXCHANGE), count=True)
    assert (result.length, result.count, result.count_up_to_symmetry) == (2, 2, 1)


GOAL_BY_CONDITION = """
puzzle "goal by condition"
board line 3
piece A a
start _ A _
goal when {goal}
move go: step A along left, right
symmetry mirror
"""


@pytest.mark.parametrize(
    ("goal", "count", "up_to"),
    [("cell(1) is a", 1, 1), ("cell(1) is a or cell(3) is a", 2, 1)],
)
def test_a_goal_given_by_conditions_is_counted_over_the_symmetries_that_keep_it(
    goal: str, count: int, up_to: int
) -> None:
    """mirror fixes the start; it keeps the second goal and not the first, which the Burnside
    count must then leave out (it made 1/2 of a solution of the first)."""
    for engine in ("python", "auto"):
        result = search(compiled_from(GOAL_BY_CONDITION.format(goal=goal)), count=True, engine=engine)
        assert (result.length, result.count, result.count_up_to_symmetry) == (1, count, up_to)


def test_a_piece_swapped_with_itself_is_refused() -> None:
    text = "board line 3\npiece A a\nstart A _ _\ngoal _ _ A\nmove go: A _ -> _ A along right\nsymmetry swap A A\n"
    with pytest.raises(SpecError) as err:
        compiled_from(text)
    (diagnostic,) = err.value.diagnostics
    assert diagnostic.message == "swap exchanges two different pieces (or places), not 'A' with itself"
    assert (diagnostic.pos.line, diagnostic.pos.column) == (6, 17)


def test_a_symmetry_of_the_goal_states_only_does_not_stop_reach() -> None:
    """`symmetry reversal` on the permutations serves `search all` (their goal states); the
    reachable states are not closed under it: --reach counts them and says why not up to it."""
    result = search(compiled_from((SPECS / "permutations.puz").read_text()), reach=True)
    assert (result.reachable, result.reachable_goals, result.reachable_up_to_symmetry) == (65, 24, None)
    assert result.symmetry_note is not None and "'reversal' is not a symmetry" in result.symmetry_note


@pytest.mark.parametrize(
    "engine", ["python", pytest.param("compiled", marks=pytest.mark.skipif(not installed(), reason="no numba"))]
)
def test_a_count_without_solution_gives_the_reachable_states_up_to_symmetry_in_both_engines(engine: str) -> None:
    text = "board line 4\npiece A a\nstart A _ _ A\ngoal _ A _ A\nmove go: A _ _ -> _ _ A along left, right\n"
    result = search(compiled_from(text + "symmetry mirror\n"), count=True, engine=engine)
    assert (result.status, result.reachable, result.reachable_up_to_symmetry) == ("no-solution", 3, 2)


MAGIC = (SPECS / "magic_square.puz").read_text()
TURN_AND_MIRROR = (
    "symmetry cycle r1c1 r1c3 r3c3 r3c1 + cycle r1c2 r2c3 r3c2 r2c1, "
    "cycle r1c1 r1c3 + cycle r2c1 r2c3 + cycle r3c1 r3c3\n"
)


def test_cycles_of_cells_generate_the_square_s_eight_symmetries() -> None:
    # a quarter turn as two cycles of four, a mirror as three of two: the 8 of `mirror, rotate`
    compiled = compiled_from(MAGIC.replace("symmetry mirror, rotate\n", TURN_AND_MIRROR))
    named = compiled_from(MAGIC)
    assert compiled.symmetry is not None and named.symmetry is not None
    assert len(compiled.symmetry) == len(named.symmetry) == 8
    assert {e.cells for e in compiled.symmetry.elements} == {e.cells for e in named.symmetry.elements}


@pytest.mark.parametrize("engine", ["python", "cpsat"])
def test_a_cycle_that_is_no_symmetry_of_the_solutions_is_refused_at_the_first_one(engine: str) -> None:
    compiled = compiled_from(MAGIC.replace("symmetry mirror, rotate\n", "symmetry cycle r1c1 r1c2\n"))
    assert compiled.symmetry is not None and compiled.symmetry.unread_rules == (
        "'cycle r1c1 r1c2' maps `sum(c.value for c in l) == n * (n*n + 1) / 2` (line 12) on r1c1, r2c1, r3c1 "
        "to a condition on r1c2, r2c1, r3c1 that no rule states"
    )
    with pytest.raises(SpecError) as err:
        enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    (diag,) = err.value.diagnostics
    assert diag.message.startswith(
        "'cycle r1c1 r1c2' is not a symmetry of this puzzle: it maps a solution found to a filling where "
    )
    assert " does not hold (solution -> image: r1c1 " in diag.message and diag.message.endswith(")")
