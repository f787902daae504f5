"""The order in which the cheapest search takes states of one f (cost so far plus estimate):
the deepest first, so that an exact estimate leads straight down to the goal instead of
widening every cost on the way; counting keeps the cheapest first. Both engines store the
same states."""

from __future__ import annotations

import pytest
from puzint.runner import search
from puzint.search import Limits

from tests.conftest import compiled_from

# walking (X) costs nothing and the estimate (the paid steps still to take) is exact: taken
# deepest first, A* pays step after step and never walks; taken cheapest first, it walks every
# X at every cost below the goal's before it pays the last step
WALK_AND_PAY = """
puzzle "walk and pay"
counter X = 0 in 0..{wide}
counter Z = 0 in 0..{top}
goal when Z == {top}
move walk: set X = X + 1 cost 0
move pay: set Z = Z + 1 cost 1
heuristic {top} - Z
search cheapest
"""


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_an_exact_estimate_leads_straight_to_the_goal(engine: str) -> None:
    wide, top = 30, 20
    compiled = compiled_from(WALK_AND_PAY.format(wide=wide, top=top))
    result = search(compiled, limits=Limits(), engine=engine)
    assert result.cost == top
    # each state taken stores its two successors: 2 a cost paid, and the start
    assert result.states == 2 * top + 1


def test_counting_still_finds_every_cheapest_solution() -> None:
    wide, top = 3, 2
    compiled = compiled_from(WALK_AND_PAY.format(wide=wide, top=top))
    result = search(compiled, count=True, limits=Limits(), engine="python")
    # walks and pays in any order: the paths of 2 pays and 0..3 walks that stop at the first goal
    # (the goal is reached by the second pay; walks come before it): C(2 + w - 1, w) ways for w
    # walks placed before the last pay, w = 0..3: 1 + 2 + 3 + 4
    assert (result.cost, result.count) == (top, 10)
