"""A filling's symmetries checked before the search, on its ground rules and its givens
(`compiler.fill_symmetry`): the expected groups and counts come from the plain solvers."""

from __future__ import annotations

from itertools import permutations

import pytest
from puzint.engines import RunOptions
from puzint.errors import SpecError
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS, compiled_from
from tests.plain import magic_hexagon, magic_square

HEXAGON = (SPECS / "magic_hexagon.puz").read_text()
SQUARE = (SPECS / "magic_square.puz").read_text()
REFLECTION = "cycle r3c4 r4c3 + cycle r3c5 r5c3"


def test_the_hexagon_s_twelve_symmetries_are_checked_on_its_rules() -> None:
    compiled = compiled_from(HEXAGON)
    group = compiled.symmetry
    assert group is not None and group.on_rules and group.unread_rules is None
    index = {c: i for i, c in enumerate(magic_hexagon.CELLS)}  # both in reading order of the grid
    plain = {tuple(index[f(c)] for c in magic_hexagon.CELLS) for f in magic_hexagon.symmetries()}
    assert len(plain) == 12
    assert {e.cells for e in group.elements} == plain


def test_a_listing_cut_by_limit_is_of_classes_checked_before_the_search() -> None:
    report = enumerate_solutions(compiled_from(HEXAGON), Limits(), limit=1, options=RunOptions("python"))
    assert report.stopped_at_limit and report.count == 1
    assert report.symmetric and report.symmetry_note is None


def test_the_square_s_classes_when_its_symmetries_are_cycles() -> None:
    turn_and_mirror = (
        "symmetry cycle r1c1 r1c3 r3c3 r3c1 + cycle r1c2 r2c3 r3c2 r2c1, "
        "cycle r1c1 r1c3 + cycle r2c1 r2c3 + cycle r3c1 r3c3\n"
    )
    compiled = compiled_from(SQUARE.replace("symmetry mirror, rotate\n", turn_and_mirror))
    assert compiled.symmetry is not None and compiled.symmetry.on_rules
    report = enumerate_solutions(compiled, Limits(), options=RunOptions("python"))
    assert (report.count, report.in_all) == (magic_square.count_up_to_symmetry(), len(magic_square.squares()))


def test_a_reflection_short_of_a_cycle_is_refused_at_a_solution_naming_a_row_it_breaks() -> None:
    compiled = compiled_from(HEXAGON.replace(REFLECTION, "cycle r3c4 r4c3"))
    assert compiled.symmetry is not None and not compiled.symmetry.on_rules
    assert str(compiled.symmetry.unread_rules).endswith(
        "+ cycle r3c4 r4c3' maps `sum(c.value for c in l) == 38` (line 11) on r3c1, r3c2, r3c3, r3c4, r3c5 "
        "to a condition on r1c3, r2c3, r3c3, r3c5, r4c3 that no rule states"
    )
    with pytest.raises(SpecError) as err:
        enumerate_solutions(compiled, Limits(), options=RunOptions("python"))
    (diag,) = err.value.diagnostics
    head, shown = diag.message.split(" (solution -> image: ")
    assert head.endswith(
        "+ cycle r3c4 r4c3' is not a symmetry of this puzzle: it maps a solution found to a filling where "
        "`sum(c.value for c in l) == 38` (line 11) on r3c1, r3c2, r3c3, r3c4, r3c5 does not hold"
    )
    # the row's five cells, what the solution holds there and what its image does
    pairs = [p.split(" ") for p in shown.removesuffix(")").split(", ")]
    assert [p[0] for p in pairs] == ["r3c1", "r3c2", "r3c3", "r3c4", "r3c5"]
    assert sum(int(p[1]) for p in pairs) == 38 and sum(int(p[3]) for p in pairs) != 38
    assert (diag.pos.line, diag.pos.column) == (16, 123)
    # the plain solver agrees: the reflection that leaves r3c5 and r5c3 in place breaks the
    # middle row (grid row 3, r = 0) of the image of every solution
    index = {c: i for i, c in enumerate(magic_hexagon.CELLS)}
    wrong = {c: c if c in ((2, 0), (0, 2)) else (c[1], c[0]) for c in magic_hexagon.CELLS}
    middle = [index[c] for c in magic_hexagon.CELLS if c[1] == 0]
    for solution in magic_hexagon.solutions():
        image = [0] * len(solution)
        for c, i in index.items():
            image[index[wrong[c]]] = solution[i]
        assert sum(image[i] for i in middle) != 38


MIRROR = "symmetry cycle r1c1 r1c3 + cycle r2c1 r2c3 + cycle r3c1 r3c3\n"


def _square_with(first_row: str) -> str:
    given = SQUARE.replace("fill cells", f"start:\n    {first_row}\n    _ _ _\n    _ _ _\nfill cells")
    return given.replace("symmetry mirror, rotate\n", MIRROR)


def test_a_symmetry_that_moves_a_given_onto_another_is_refused_before_the_search() -> None:
    assert any(s[0] == 2 and s[2] == 4 for s in magic_square.squares())  # the start has solutions
    with pytest.raises(SpecError) as err:
        compiled_from(_square_with("2 _ 4"))
    (diag,) = err.value.diagnostics
    assert diag.message == (
        "'cycle r1c1 r1c3 + cycle r2c1 r2c3 + cycle r3c1 r3c3' is not a symmetry of this puzzle: "
        "it moves 2 at r1c1 to r1c3, which holds 4"
    )
    assert diag.expected == "a permutation that moves every given to a cell that holds the same given"


def test_a_symmetry_that_moves_a_given_onto_an_open_cell_is_refused_at_a_solution() -> None:
    compiled = compiled_from(_square_with("2 _ _"))
    assert compiled.symmetry is not None and compiled.symmetry.unread_rules == (
        "'cycle r1c1 r1c3 + cycle r2c1 r2c3 + cycle r3c1 r3c3' moves 2 at r1c1 to r1c3, which the start leaves open"
    )
    corners = {s[2] for s in magic_square.squares() if s[0] == 2}  # what the mirror brings to r1c1
    assert corners == {4, 6}
    with pytest.raises(SpecError) as err:
        enumerate_solutions(compiled, Limits(), options=RunOptions("python"))
    (diag,) = err.value.diagnostics
    prefix = (
        "'cycle r1c1 r1c3 + cycle r2c1 r2c3 + cycle r3c1 r3c3' is not a symmetry of this puzzle: "
        "it maps a solution found to a filling where r1c1 holds "
    )
    assert diag.message in {f"{prefix}{v}, not its given 2 (solution -> image: r1c1 2 -> {v})" for v in corners}
    assert diag.expected == "a permutation that maps every solution to a solution (checked on each solution found)"


ODD_ENDS = """puzzle "odd ends"
board grid 1 x 3
pieces 1..3 "numbers"
fill cells with 1..3
rule:
    all different(cells)
    (r1c1.value + r1c3.value) % 2 == 0
symmetry cycle r1c1 r1c3
"""


def _odd_ends() -> list[tuple[int, ...]]:
    return [p for p in permutations((1, 2, 3)) if (p[0] + p[2]) % 2 == 0]


def test_rules_the_check_cannot_read_leave_the_symmetry_to_the_solutions_found() -> None:
    compiled = compiled_from(ODD_ENDS)
    assert compiled.symmetry is not None and not compiled.symmetry.on_rules
    assert compiled.symmetry.unread_rules == (
        "the check before the search cannot say a division of a number that reads several things: "
        "`(r1c1.value + r1c3.value) % 2` (line 7, column 5)"
    )
    found = _odd_ends()  # (1, 2, 3) and (3, 2, 1): one class under the exchange of the ends
    report = enumerate_solutions(compiled, Limits(), options=RunOptions("python"))
    assert (report.count, report.in_all, report.symmetry_note) == (1, len(found), None)
    with pytest.raises(SpecError) as err:
        enumerate_solutions(
            compiled_from(ODD_ENDS.replace("cycle r1c1 r1c3", "cycle r1c1 r1c2")),
            Limits(),
            options=RunOptions("python"),
        )
    # the image of (1, 2, 3) is (2, 1, 3), of (3, 2, 1) is (2, 3, 1): the ends' sum is odd
    assert err.value.diagnostics[0].message in {
        "'cycle r1c1 r1c2' is not a symmetry of this puzzle: it maps a solution found to a filling where "
        f"`(r1c1.value + r1c3.value) % 2 == 0` (line 7) on r1c1, r1c3 does not hold (solution -> image: {shown})"
        for shown in ("r1c1 1 -> 2, r1c3 3 -> 3", "r1c1 3 -> 2, r1c3 1 -> 1")
    }
    assert all((p[1] + p[2]) % 2 for p in found)  # the exchange of the first two breaks it for both


def test_a_listing_cut_by_limit_is_not_sorted_by_an_unchecked_symmetry() -> None:
    report = enumerate_solutions(compiled_from(ODD_ENDS), Limits(), limit=1, options=RunOptions("python"))
    assert (report.count, report.symmetric) == (1, False)
    assert report.symmetry_note == (
        "not listed up to symmetry: the symmetries are checked on the solutions found (the check before the search "
        "cannot say a division of a number that reads several things: `(r1c1.value + r1c3.value) % 2` (line 7, "
        "column 5)), and --limit stops before "
        "every solution is found"
    )


def test_a_symmetry_left_to_the_solutions_is_said_unchecked_when_there_is_none() -> None:
    unsolvable = ODD_ENDS.replace("% 2 == 0\n", "% 2 == 0\n    r1c2.value % 2 == 1\n")
    assert not [p for p in _odd_ends() if p[1] % 2 == 1]  # the plain reading: no solution
    report = enumerate_solutions(compiled_from(unsolvable), Limits(), options=RunOptions("python"))
    assert (report.count, report.in_all) == (0, 0)
    assert report.symmetry_note == (
        "symmetry not checked: the symmetries are checked on the solutions found (the check before the search "
        "cannot say a division of a number that reads several things: `(r1c1.value + r1c3.value) % 2` (line 7, "
        "column 5)), and there is none"
    )


def test_a_symmetry_checked_on_the_rules_needs_no_note_when_there_is_no_solution() -> None:
    given = SQUARE.replace("fill cells", "start:\n    _ _ _\n    _ 1 _\n    _ _ _\nfill cells")
    assert not [s for s in magic_square.squares() if s[4] == 1]  # 5 is the centre of every square
    compiled = compiled_from(given)  # its mirror and quarter turn keep the centre
    assert compiled.symmetry is not None and compiled.symmetry.on_rules
    report = enumerate_solutions(compiled, Limits(), options=RunOptions("python"))
    assert (report.count, report.symmetry_note) == (0, None)


def test_a_rule_on_many_cells_is_named_by_its_first_cells_and_its_image_on_the_same_cells_said_so() -> None:
    compiled = compiled_from(
        """puzzle "noughts and crosses on a line"
board line 10
piece X cross
piece O nought
fill cells with X, O
rule: count(c in cells if c is X) == 3
symmetry swap X O
"""
    )
    assert compiled.symmetry is not None and not compiled.symmetry.on_rules
    assert str(compiled.symmetry.unread_rules).endswith(
        "'swap X O' maps `count(c in cells if c is X) == 3` (line 6) on 1, 2, 3, 4, 5, 6, 7, 8, ... "
        "(10 cells) to a condition on the same cells that no rule states"
    )
