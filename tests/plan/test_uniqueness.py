"""`search any` on a filling answers two things: a solution, and whether it is the only one.
A limit that stops the search for a second leaves the second unknown: the run says which
limit, and exits as a run stopped by a limit does (3); in a race, Python stopped there is
not the answer, the other engine's is."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.kernel import installed
from puzint.plan import race, table
from puzint.runner import search

from tests.conftest import compiled_from

# the first filling tried (all zeros) keeps the rule; a second lies at the far end of the walk
FOUR = """puzzle "four"
fill A, B, C, D with 0..30
rule: A + B + C + D == 0 or A * B * C * D == 810000
search any
"""


def fillings() -> list[tuple[int, ...]]:
    values = range(31)
    return [f for f in itertools.product(values, repeat=4) if sum(f) == 0 or f[0] * f[1] * f[2] * f[3] == 810_000]


def test_a_limit_that_cuts_the_proof_of_uniqueness_is_said_and_exits_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "four.puz"
    spec.write_text(FOUR)
    code = main(["run", str(spec), "--engine", "python", "--max-states", "1000", "--format", "json", "--quiet"])
    data = json.loads(capsys.readouterr().out)
    assert len(fillings()) > 1  # so the proof was cut, not finished
    assert code == 3
    assert (data["status"], data["unique"]) == ("solved", None)
    assert data["unique_unknown"] == "state limit of 1,000 reached"
    code = main(["run", str(spec), "--engine", "python", "--max-states", "1000", "--quiet"])
    assert code == 3
    assert "whether it is the only solution is not known: state limit of 1,000 reached" in capsys.readouterr().out


@pytest.mark.skipif(not installed() or not race.possible(), reason="a race needs numba, a fork and two cores")
def test_python_stopped_before_it_knew_whether_its_solution_is_the_only_one_leaves_the_answer_to_the_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table, "GIVE_WAY", 0.01)
    result = search(compiled_from(FOUR))
    assert (result.tried_first, result.status) == ("python", "solved")
    assert result.engine in ("cpsat", "compiled")
    assert result.unique is (len(fillings()) == 1) and result.unique_unknown is None
