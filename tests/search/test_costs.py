"""Costs of several parts (`cost 1, 1`): added part by part, compared by the first part that
differs, in every search that adds costs."""

from __future__ import annotations

import json

import pytest
from puzint.cli import main
from puzint.runner import search
from puzint.search.costs import LexCost

from tests.conftest import compiled_from

WALK_OR_JUMP = """
board line 7
piece A a
start A _ _ _ _ _ _
goal _ _ _ _ _ A _
search cheapest
move walk: A _ -> _ A along right cost 0, 1
move jump: A _ _ _ _ _ -> _ _ _ _ _ A along right cost 1, 1
"""


def test_the_first_part_decides_then_the_next() -> None:
    """Five walks cost (0, 5), one jump (1, 1): the walks are cheaper, whatever the moves."""
    result = search(compiled_from(WALK_OR_JUMP), engine="python")
    assert (result.length, tuple(result.cost)) == (5, (0, 5))  # type: ignore[arg-type]
    swapped = WALK_OR_JUMP.replace("cost 0, 1", "cost 1, 0").replace("cost 1, 1", "cost 1, 1")
    assert tuple(search(compiled_from(swapped), engine="python").cost) == (1, 1)  # type: ignore[arg-type]


def test_cheapest_solutions_of_several_parts_are_counted() -> None:
    text = (
        WALK_OR_JUMP.replace("board line 7", "board grid 2 x 7").replace(
            "start A _ _ _ _ _ _\ngoal _ _ _ _ _ A _",
            "start A _ _ _ _ _ _ _ _ _ _ _ _ _\ngoal _ _ _ _ _ _ _ _ _ _ _ A _ _",
        )
        + "move down: A _ -> _ A along down cost 0, 1\n"
    )
    result = search(compiled_from(text), count=True, engine="python")
    assert tuple(result.cost) == (0, 5) and result.count == 5  # type: ignore[arg-type]  # the step down: 5 places


def test_the_json_lists_the_parts(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    from pathlib import Path

    spec = Path(str(tmp_path)) / "walk.puz"
    spec.write_text(WALK_OR_JUMP)
    assert main(["run", str(spec), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cost"] == [0, 5] and [m["cost"] for m in data["moves"]] == [[0, 1]] * 5


def test_a_cost_of_parts_adds_and_orders_part_by_part() -> None:
    a, b = LexCost((1, 2)), LexCost((0, 5))
    assert a + b == LexCost((1, 7)) and 0 + a == a and b < a and b > 0 and LexCost((0, 0)) == 0
    assert sorted([a, b, 0]) == [0, b, a] and f"{LexCost((1000, 2)):,}" == "1,000, 2"
