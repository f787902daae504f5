"""Regions drawn as a picture (`regions:`): a jigsaw Latin square and a Killer Shidoku on
every engine that answers fillings, against the plain enumeration of tests/plain/regions.py."""

from __future__ import annotations

import pytest

from tests.conftest import SPECS, compiled_from
from tests.engines.test_fillings import ENGINE_NAMES, boards
from tests.plain import regions

JIGSAW = ["aaab", "cabb", "ccdb", "cddd"]
JIGSAW_SPEC = """
board grid 4 x 4
pieces 1..4 "numbers"
regions:
    a a a b
    c a b b
    c c d b
    c d d d
fill cells with 1..4
rule: every l in rows, columns, regions: all different(l)
"""


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_jigsaw_latin_square_has_the_plain_enumeration_s_squares(engine: str) -> None:
    assert boards(compiled_from(JIGSAW_SPEC), engine) == set(regions.solutions(4, JIGSAW))


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_the_killer_shidoku_has_its_one_solution(engine: str) -> None:
    compiled = compiled_from((SPECS / "killer_shidoku.puz").read_text())
    assert boards(compiled, engine) == {"1234341221434321"}


def test_region_of_a_letter_not_drawn_is_refused() -> None:
    from puzint.errors import SpecError

    with pytest.raises(SpecError, match="no region is drawn with 'z'"):
        compiled_from(JIGSAW_SPEC + "rule: sum(c.value for c in region(z)) == 10\n")


def test_what_two_cells_hold_is_compared_by_their_symbols() -> None:
    from puzint.runner import search

    spec = "board grid 1 x 4\npiece A\npiece B\nfill cells with A, B\nrule: r1c1.symbol == r1c4.symbol\n"
    assert boards(compiled_from(spec), "python") == {a + m + n + a for a in "AB" for m in "AB" for n in "AB"}
    assert search(compiled_from(spec), count=True).count == 8  # the engine `auto` picks


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_regions_named_by_words_of_several_letters(engine: str) -> None:
    named = JIGSAW_SPEC.replace(
        "    a a a b\n    c a b b\n    c c d b\n    c d d d\n",
        "".join("    " + " ".join(("AA", "AB", "AC", "AD")["abcd".index(ch)] for ch in row) + "\n" for row in JIGSAW),
    )
    assert "AA AA AA AB" in named
    assert boards(compiled_from(named), engine) == set(regions.solutions(4, JIGSAW))
    with_sum = named + "rule: sum(c.value for c in region(AB)) == 10\n"
    assert boards(compiled_from(with_sum), engine) == set(regions.solutions(4, JIGSAW))
