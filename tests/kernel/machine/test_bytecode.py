"""What the machine does not run is said in the spec's words (the construct as written, and
where), never as the model's class names."""

from __future__ import annotations

import pytest
from puzint.kernel.machine.program import why_not

from tests.conftest import compiled_from

NUMBERS = """puzzle "numbers in a row"
board line 3
pieces 1..3 "numbers"
start 1 2 3
move swap: ?a ?b -> ?b ?a
"""


@pytest.mark.parametrize(
    ("goal", "reason"),
    [
        ("goal when product(c.value for c in cells) == 6", "product(...) (line 6, column 11)"),
        ("goal when every c in cells: some x in neighbours(c, any): x.value > 0", "a walk over neighbours(...)"),
        (
            'goal when some x in cells: x.name == "3" and x.value == 1',
            "a cell's `name` read during the search (line 6, column 28)",
        ),
    ],
)
def test_the_machine_names_what_it_does_not_run_as_the_spec_writes_it(goal: str, reason: str) -> None:
    assert why_not(compiled_from(NUMBERS + goal + "\n")) == reason
