"""A filling's sums and counts filtered by where a cell lies (`c.row == r`, `c.col >= 2`) run
over the cells that pass, written out before any engine reads the rule: every engine sees a
plain list of cells, the kernel among them, and all give the plain enumeration's answer."""

from __future__ import annotations

import itertools

import pytest
from puzint.compiler.families.fill import rule_cuts
from puzint.model import expr as m

from tests.conftest import compiled_from
from tests.engines.test_fillings import ENGINE_NAMES, boards

SPEC = """
board grid 2 x 3
pieces 1..6
fill cells with 1..6
rule:
    all different(cells)
    max(c.value for c in cells if c.row == 1) == 6
    every k in 1..3: sum(c.value for c in cells if c.col == k and c.value >= 4) >= 4
    count(c in cells if c.row == 2 and c.col >= 2 and c.value > 3) == 1
"""


def plain_solutions() -> set[str]:
    """Every filling of the 2 x 3 grid with 1..6 that keeps the rules, read as they are said."""
    out = set()
    for numbers in itertools.permutations(range(1, 7)):
        grid = [numbers[0:3], numbers[3:6]]
        if max(grid[0]) != 6:
            continue
        if not all(any(grid[r][k] >= 4 for r in range(2)) for k in range(3)):
            continue
        if sum(1 for k in (1, 2) if grid[1][k] > 3) != 1:
            continue
        out.add("".join(str(n) for n in numbers))
    return out


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_filters_on_where_a_cell_lies_give_the_plain_answer_on_every_engine(engine: str) -> None:
    assert boards(compiled_from(SPEC), engine) == plain_solutions() and len(plain_solutions()) == 72


def test_the_filters_are_decided_per_cell_before_the_rules_are_read() -> None:
    cuts = list(rule_cuts(compiled_from(SPEC).puzzle))
    most = cuts[1][0]
    assert isinstance(most, m.Binary) and isinstance(most.left, m.Aggregate)
    assert most.left.domain == m.CellsDomain((0, 1, 2)) and most.left.condition is None
    column = cuts[2][0]
    assert isinstance(column, m.Binary) and isinstance(column.left, m.Aggregate)
    assert column.left.domain == m.CellsDomain((0, 3)) and column.left.condition is not None  # c.value >= 4 stays
    counted = cuts[5][0]
    assert isinstance(counted, m.Binary) and isinstance(counted.left, m.Aggregate)
    assert counted.left.domain == m.CellsDomain((4, 5))


def test_the_kernel_takes_a_most_over_one_row() -> None:
    from puzint.engines.compiled import CompiledEngine
    from puzint.engines.query import Query

    assert CompiledEngine().why_not(compiled_from(SPEC), Query(mode="all")) is None


STAR = """
board graph hub, a, b, c
link hub - a, hub - b, hub - c
pieces 1..4
fill cells with 1..4
rule:
    all different(cells)
    sum(x.value for x in cells if x.name != "hub") == 9
    every x in cells: x.name != "a" or x.value < 4
"""


def plain_stars() -> set[str]:
    """Every filling of hub, a, b, c with 1..4: the three leaves add up to 9, a holds less than 4."""
    return {"".join(map(str, p)) for p in itertools.permutations(range(1, 5)) if sum(p[1:]) == 9 and p[1] < 4}


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_filter_on_a_cell_s_name_gives_the_plain_answer_on_every_engine(engine: str) -> None:
    assert boards(compiled_from(STAR), engine) == plain_stars() and len(plain_stars()) == 4


def test_a_filter_on_a_cell_s_name_is_decided_before_the_rules_are_read() -> None:
    cuts = list(rule_cuts(compiled_from(STAR).puzzle))
    leaves = cuts[1][0]
    assert isinstance(leaves, m.Binary) and isinstance(leaves.left, m.Aggregate)
    assert leaves.left.domain == m.CellsDomain((1, 2, 3)) and leaves.left.condition is None


def test_name_is_refused_on_a_cell_where_the_pieces_have_an_attribute_name() -> None:
    from puzint.errors import SpecError

    spec = "board line 2\npiece A a with name = 1\nstart A _\nmove go: A _ -> _ A\n"
    spec += 'goal when some x in cells: x.name == "1"\n'
    with pytest.raises(SpecError) as err:
        compiled_from(spec)
    assert err.value.diagnostics[0].message == (
        "`name` is a cell's name, and the pieces have an attribute `name` too: which is meant is unclear"
    )
