"""Large values on every engine: each engine's translation takes its bounds from the one range
analysis (compiler.ranges) and refuses what it cannot say exactly, so that no engine answers
"no solution" for a solvable puzzle. Every expected answer is a plain brute force's, here."""

from __future__ import annotations

import itertools
import json

import pytest
from puzint.cli import main
from puzint.engines import Query, RunOptions
from puzint.errors import SpecError
from puzint.plan.table import plan
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import compiled_from
from tests.engines.test_fillings import ENGINE_NAMES, KERNEL, SOLVER


def counters(low: int, high: int, rule: str, search_line: str = "") -> str:
    return f'puzzle "big"\nfill A, B with {low}..{high}\nrule: {rule}\n{search_line}'


def brute(low: int, high: int, holds: object) -> list[tuple[int, int]]:
    return [(a, b) for a in range(low, high + 1) for b in range(low, high + 1) if holds(a, b)]  # type: ignore[operator]


CASES = [
    # a product just past 10**12, where CP-SAT's intermediates were bounded
    (999_990, 1_000_010, "A * B == 1000000000000 + 20*1000000 + 100", lambda a, b: a * b == 10**12 + 20 * 10**6 + 100),
    (1_000_000, 1_000_004, "A * B > 1000003000000", lambda a, b: a * b > 1_000_003_000_000),
    (-1_000_004, -999_999, "abs(A * B) >= 1000003000000", lambda a, b: abs(a * b) >= 1_000_003_000_000),
    (
        999_998,
        1_000_003,
        "max(A * B, A * A) - min(B * B, 2) == 1000004000004",
        lambda a, b: max(a * b, a * a) - min(b * b, 2) == 1_000_004_000_004,
    ),
    (2**31 - 3, 2**31 + 2, "A * B == 461168601413242060 * 10 + 9", lambda a, b: a * b == 4_611_686_014_132_420_609),
]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize(("low", "high", "rule", "holds"), CASES, ids=[c[2] for c in CASES])
def test_every_engine_counts_the_fillings_of_large_values_as_a_brute_force_does(
    engine: str, low: int, high: int, rule: str, holds: object
) -> None:
    compiled = compiled_from(counters(low, high, rule))
    expected = brute(low, high, holds)
    if engine == "cpsat" and high > 2**30:  # a product past CP-SAT's 2**60: refused, and said why
        with pytest.raises(SpecError) as refused:
            plan(compiled, Query.of(compiled), RunOptions(engine))
        assert "may reach 4,611,686,027,017,322,500 (its model takes values below 2**60" in str(refused.value)
        return
    report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    found = sorted(tuple(compiled.layout.decode(path[-1][1]).counters[:2]) for path in report.solutions)
    assert found == expected


# found by the fuzzer at the edges (tests/fuzz/test_values_differential.py), shrunk: OR-tools
# 9.15's presolve "proved" these unsolvable, for any factor of a product past 2**31
SHRUNK = [
    ("fill A with 0..2\nfill C with 1000000000000..1000000000001\nrule: (A * C) != 0", lambda a, c: a * c != 0),
    (
        "fill A with 0..3\nfill C with 1000000000000..1000000000001\nrule:\n    A != 0\n    (A * C) != 0",
        lambda a, c: a != 0 and a * c != 0,
    ),
    (
        "fill A with 1000000..1000001\nfill C with 0..2\nrule: (A * (1000000000000 + C)) != 10 * 100000000000000000",
        lambda a, c: a * (10**12 + c) != 10**18,
    ),
]


@pytest.mark.parametrize("engine", ENGINE_NAMES)
@pytest.mark.parametrize(("text", "holds"), SHRUNK, ids=["product", "product and a rule", "product of a sum"])
def test_a_product_of_factors_past_2_to_the_31_is_counted_as_a_brute_force_does(
    engine: str, text: str, holds: object
) -> None:
    compiled = compiled_from(f'puzzle "shrunk"\n{text}\n')
    names = [c.name for c in compiled.puzzle.counters if c.role == "number"]
    ranges = [range(c.low, c.high + 1) for c in compiled.puzzle.counters if c.role == "number"]
    expected = sorted(v for v in itertools.product(*ranges) if holds(*v))  # type: ignore[operator]
    assert names == ["A", "C"] and expected
    if engine == "cpsat":
        with pytest.raises(SpecError) as refused:
            plan(compiled, Query.of(compiled), RunOptions(engine))
        assert "OR-tools' presolve is wrong past 2**31" in str(refused.value)
        return
    report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    found = sorted(tuple(compiled.layout.decode(path[-1][1]).counters[:2]) for path in report.solutions)
    assert found == expected


def test_the_default_engine_finds_the_one_filling_of_a_product_past_10_to_the_12(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # CP-SAT won the race and "proved" it unsolvable: exit 4
    import tempfile
    from pathlib import Path

    text = counters(1_000_000, 1_060_000, "A * B == 1123600000000 and A <= B", "search any\n")
    with tempfile.TemporaryDirectory() as folder:
        spec = Path(folder) / "big.puz"
        spec.write_text(text)
        code = main(["run", str(spec), "--format", "json", "--quiet"])
    data = json.loads(capsys.readouterr().out)
    expected = [(a, 1_123_600_000_000 // a) for a in range(1_000_000, 1_060_001) if 1_123_600_000_000 % a == 0]
    expected = [(a, b) for a, b in expected if a <= b <= 1_060_000]
    assert expected == [(1_060_000, 1_060_000)]
    assert code == 0 and data["status"] == "solved" and data["unique"] is True


@SOLVER
def test_cp_sat_refuses_a_value_past_its_words_and_says_where() -> None:
    compiled = compiled_from(counters(0, 9, "A + B * 100000000000000000 * 100 > 3"))
    with pytest.raises(SpecError) as caught:
        plan(compiled, Query.of(compiled), RunOptions("cpsat"))
    assert caught.value.diagnostics[0].message == (
        "--engine cpsat cannot run this: the constraint solver cannot say a value that may reach "
        "90,000,000,000,000,000,009 (its model takes values below 2**60; the Python engine has no bound): "
        "`A + B * 100000000000000000 * 100` (line 3, column 7)"
    )
    expected = len(brute(0, 9, lambda a, b: a + b * 10**19 > 3))
    assert enumerate_solutions(compiled, Limits()).count == expected


HIDATO = """puzzle "Hidato"
board grid 3 x 4
pieces 1..12 "numbers"
start:
    1 _ _ _
    _ _ _ _
    _ _ _ 12
fill cells with 1..12
rule:
    all different(cells)
    every a in cells: every b in cells: a.value + 1 != b.value or max(abs(a.row - b.row), abs(a.col - b.col)) == 1
"""


def hidato_paths(rows: int, cols: int, first: tuple[int, int], last: tuple[int, int]) -> int:
    """Plain: the king's paths through every cell from `first` to `last` (each a Hidato filling)."""
    cells = rows * cols
    found = 0

    def walk(at: tuple[int, int], seen: set[tuple[int, int]]) -> None:
        nonlocal found
        if len(seen) == cells:
            found += at == last
            return
        for dr, dc in itertools.product((-1, 0, 1), repeat=2):
            step = (at[0] + dr, at[1] + dc)
            inside = 0 <= step[0] < rows and 0 <= step[1] < cols and step not in seen
            if inside and (step != last or len(seen) == cells - 1):
                walk(step, seen | {step})

    walk(first, {first})
    return found


@pytest.mark.parametrize("engine", ENGINE_NAMES)
def test_a_hidato_written_as_a_filling_has_the_plain_walk_s_solutions(engine: str) -> None:
    # the kernel counted a rule's combinations in 64 bits: the count wrapped and it said "no solution"
    compiled = compiled_from(HIDATO)
    report = enumerate_solutions(compiled, Limits(), options=RunOptions(engine))
    assert report.count == len(report.solutions) == hidato_paths(3, 4, (0, 0), (2, 3)) > 0


@KERNEL
def test_the_kernel_refuses_a_rule_of_more_combinations_than_64_bits_count() -> None:
    names = [f"X{i}" for i in range(13)]
    text = f'puzzle "wide"\nfill {", ".join(names)} with 1..40\nrule: {" * ".join(names)} == 5\n'
    compiled = compiled_from(text)
    with pytest.raises(SpecError) as caught:
        plan(compiled, Query.of(compiled), RunOptions("compiled"))
    message = caught.value.diagnostics[0].message
    assert "over 13 things (more than 10**20 combinations, more than 4,096)" in message
