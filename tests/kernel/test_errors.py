"""A mistake that shows only during the search (a division by zero, a number read from an empty
cell) stops the kernel's search
as it stops the Python engine's: the same message, at the same place in the spec, in every
kind of search that evaluates the expression."""

from __future__ import annotations

import pytest
from puzint.engines import RunOptions
from puzint.errors import SpecError
from puzint.kernel import installed
from puzint.runner import kernel_unfit, search
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS, compiled_from

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

JUGS = (SPECS / "water_jugs.puz").read_text()  # small 3, big 5, want 4 in the big jug
RULE = JUGS + "safe: 6 / (B - 4) != 99\n"  # a child with 4 litres in the big jug divides by zero
HEURISTIC = JUGS + "heuristic 6 / (3 - S)\n"  # the small jug full
COST = JUGS.replace("move empty: set ?j = 0", "move empty: set ?j = 0 cost 6 / (3 - S)") + "search cheapest\n"
GOAL = JUGS.replace("goal when B == want", "goal when B / (S - 3) == want")
CASES = [
    ("a safety rule", RULE, {"method": "bfs"}),
    ("a safety rule", RULE, {"count": True}),
    ("a safety rule", RULE, {"reach": True}),
    ("a safety rule", RULE, {"mode": "any"}),
    ("a heuristic", HEURISTIC, {"method": "astar"}),
    ("a heuristic", HEURISTIC, {"method": "idastar"}),
    ("a move's cost", COST, {}),
    ("a goal", GOAL, {"method": "bfs"}),
    ("a goal", GOAL, {"reach": True}),
]


def message(engine: str, text: str, asked: dict[str, object]) -> tuple[str, int]:
    with pytest.raises(SpecError) as caught:
        search(compiled_from(text), engine=engine, **asked)  # type: ignore[arg-type]
    (diagnostic,) = caught.value.diagnostics
    return diagnostic.message, diagnostic.pos.line


@pytest.mark.parametrize(("where", "text", "asked"), CASES, ids=[f"{w}-{sorted(a)}" for w, _, a in CASES])
def test_an_error_in_a_search_reads_as_in_python(where: str, text: str, asked: dict[str, object]) -> None:
    unfit = kernel_unfit(
        compiled_from(text),
        bool(asked.get("count")),
        bool(asked.get("reach")),
        str(asked.get("method", "auto")),
        asked.get("mode"),  # type: ignore[arg-type]
    )
    assert unfit is None, unfit
    python = message("python", text, asked)
    assert python[0] == "division by zero"
    assert message("compiled", text, asked) == python


def test_an_error_in_a_walk_of_search_all_reads_as_in_python() -> None:
    # `cursor` is a cell: in arithmetic, the number of the piece on it, where there may be none
    text = (SPECS / "number_circle.puz").read_text() + "safe: 12 / (7 - cursor) > 0 or hand is empty\n"
    messages = []
    for engine in ("python", "compiled"):
        with pytest.raises(SpecError) as caught:
            enumerate_solutions(compiled_from(text, n=10), Limits(), keep=False, options=RunOptions(engine))
        messages.append(caught.value.render())
    assert messages[0] == messages[1] and "no number here: the cell is empty" in messages[0]


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_cost_below_0_is_refused_where_it_is_met(engine: str) -> None:
    """A negative cost would let the cheapest search go round a cycle for ever (its parents
    would even form a loop): both engines refuse it at the cost, with its value."""
    text = JUGS.replace("move empty: set ?j = 0", "move empty: set ?j = 0 cost 1 - ?j") + "search cheapest\n"
    assert message(engine, text, {}) == ("a move's cost must be 0 or more, not -2", 14)


# found by the differential fuzzing: the goal reads a number from cell 1, which the start
# fills and the first move empties; the kernel's goal tests on states of one word read the
# failed test as "not a goal" and went on (3 states reachable, 2 goals)
LATE_GOAL = """
puzzle "late"
board line 3
pieces 1..2 "numbers"
start 1 2 _
goal when cell(1) == 2
move go: ?t _ -> _ ?t
"""


@pytest.mark.parametrize(
    "asked",
    [{"reach": True}, {"count": True}, {"method": "bfs"}, {"method": "astar"}],
    ids=["reach", "count", "bfs", "astar"],
)
def test_a_goal_that_fails_after_the_start_stops_the_kernel_as_python(asked: dict[str, object]) -> None:
    text = LATE_GOAL + ("heuristic 0\n" if asked.get("method") == "astar" else "")
    python = message("python", text, asked)
    assert python == ("no number here: the cell is empty or its piece has no value", 6)
    assert message("compiled", text, asked) == python
