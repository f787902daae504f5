"""Every shortest (cheapest) solution listed from the graph of shortest paths: checked against
a brute-force walk of every move sequence of that length, and against the path counts of the
layered search (and Burnside's count, up to symmetry)."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.engines import RunOptions
from puzint.questions import Question, ask
from puzint.runner import load, solve
from puzint.search import Limits
from puzint.search.result import SOLVED
from puzint.solutions import enumerate_shortest

SPECS = Path(__file__).resolve().parents[2] / "specs"


def brute_force(compiled, length: int) -> set[tuple[bytes, ...]]:  # type: ignore[no-untyped-def]
    """Every sequence of states of exactly `length` moves from the start that ends at a goal,
    by trying every move from every state (no graph, no memory of states)."""
    found: set[tuple[bytes, ...]] = set()

    def walk(states: list[bytes]) -> None:
        if len(states) == length + 1:
            if compiled.is_goal(states[-1]):
                found.add(tuple(states))
            return
        for child in {child for child, _ in compiled.expand(states[-1])}:
            walk([*states, child])

    walk([compiled.start])
    return found


def sequences(compiled, paths) -> list[tuple[bytes, ...]]:  # type: ignore[no-untyped-def]
    return [(compiled.start, *(state for _, state in path)) for path in paths]


@pytest.mark.parametrize(
    ("spec", "params", "length", "count"),
    [
        ("frog.puz", {"n": "2"}, 8, 2),
        ("frog.puz", {"n": "3"}, 15, 2),
        ("oshidori.puz", {"n": "3"}, None, None),
        ("farmer.puz", {}, 7, 2),
        ("hanoi.puz", {"discs": "3"}, 7, 1),
    ],
)
def test_every_shortest_solution_is_listed_once(
    spec: str, params: dict[str, str], length: int | None, count: int | None
) -> None:
    compiled = load(SPECS / spec, params)
    report = enumerate_shortest(compiled, Limits())
    listed = sequences(compiled, report.solutions)
    assert report.status == SOLVED
    if length is not None:
        assert report.length == length and report.count == count
    assert len(set(listed)) == len(listed) == report.total == report.count
    assert set(listed) == brute_force(compiled, report.length or 0)


def test_the_total_agrees_with_the_layered_path_count() -> None:
    compiled = load(SPECS / "jealous_husbands.puz", {})
    counted = solve(
        compiled, ask(compiled, Question(count=True), RunOptions()), Limits(), "jealous_husbands.puz"
    ).result
    report = enumerate_shortest(compiled, Limits(), keep=False)
    assert counted.count is not None and counted.count > 100
    assert report.count == report.total == counted.count and report.length == counted.length


def test_cheapest_solutions_are_listed_for_a_spec_with_costs() -> None:
    compiled = load(SPECS / "bridge_torch.puz", {})
    report = enumerate_shortest(compiled, Limits())
    assert report.cost == 17 and report.count == report.total == 2  # 1+2, 1, 5+10, 2, 1+2 and its twin
    for path in report.solutions:
        before, paid = compiled.start, 0
        for move, after in path:
            paid += next(cost for child, number, cost in compiled.expand_costed(before) if number == move)
            before = after
        assert paid == 17 and compiled.is_goal(before)


def test_one_solution_of_each_symmetry_class() -> None:
    compiled = load(SPECS / "knights.puz", {"rows": "3"})
    counted = solve(compiled, ask(compiled, Question(count=True), RunOptions()), Limits(), "knights.puz").result
    report = enumerate_shortest(compiled, Limits())
    assert report.total == counted.count and report.count == counted.count_up_to_symmetry
    group = compiled.symmetry
    assert group is not None
    images = [e.image for e in group.solution_symmetries]
    every = brute_force(compiled, report.length or 0)
    classes = {min(tuple(image(s) for s in seq) for image in images) for seq in every}
    listed = sequences(compiled, report.solutions)
    assert len(classes) == len(listed)
    assert {min(tuple(image(s) for s in seq) for image in images) for seq in listed} == classes


def test_a_limit_lists_the_first_ones_and_still_gives_the_total() -> None:
    compiled = load(SPECS / "jealous_husbands.puz", {})
    report = enumerate_shortest(compiled, Limits(), limit=3)
    assert report.count == 3 and report.stopped_at_limit and report.total is not None and report.total > 3
