"""Declared symmetries: the group they generate, and the check that they really are ones."""

from __future__ import annotations

import pytest
from puzint.compiler.symmetry import generate
from puzint.errors import SpecError
from puzint.runner import search

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
    ],
)
def test_bad_symmetries_are_reported(line: str, message: str) -> None:
    with pytest.raises(SpecError) as err:
        compiled_from(FROG + line + "\n")
    assert message in [d.message for d in err.value.diagnostics]
