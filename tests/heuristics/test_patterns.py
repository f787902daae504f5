"""Pattern databases derived from a spec: admissible (never more than the exact distance,
found by a plain breadth-first search backward from the goal over every state), exact where
one pattern keeps every piece, the same on both engines, and kept on disk only as sound."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.heuristics import Derived, derive
from puzint.heuristics import patterns as patterns_module
from puzint.heuristics.abstraction import abstraction
from puzint.model.patterns import PatternSet
from puzint.runner import load, search
from puzint.search import Limits

from tests.conftest import SPECS


def exact_distances(compiled: CompiledPuzzle) -> dict[bytes, int]:
    """Every state that can reach the goal, and how far it is (the moves of these specs can
    all be undone, so the goal's breadth-first layers are the distances)."""
    goal = compiled.goal_state
    assert goal is not None
    far = {goal: 0}
    todo = deque([goal])
    while todo:
        state = todo.popleft()
        for after, _ in compiled.expand(state):
            if after not in far:
                far[after] = far[state] + 1
                todo.append(after)
    return far


def derived(spec: str, most_states: int) -> Derived:
    made = derive(load(SPECS / f"{spec}.puz"), Limits(), most_states)
    assert isinstance(made, Derived)
    return made


@pytest.fixture(scope="module")
def eight_distances() -> dict[bytes, int]:
    return exact_distances(load(SPECS / "eight_puzzle.puz"))


@pytest.mark.parametrize(
    ("most_states", "tables", "mean"),
    [(2000, "2-2-2-2 (added)", 15.02), (20000, "4-4 (added)", 19.18), (200000, "6-2 (added)", 20.04)],
)
def test_the_tables_never_say_more_than_the_distance(
    eight_distances: dict[bytes, int], most_states: int, tables: str, mean: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUZINT_KEEP_PATTERNS", "0")
    made = derived("eight_puzzle", most_states)
    assert made.about.startswith(f"pattern databases {tables}")
    estimate = made.compiled.estimate
    assert estimate is not None
    values = {state: estimate(state) for state in eight_distances}
    assert all(values[state] <= far for state, far in eight_distances.items())
    assert round(sum(values.values()) / len(values), 2) == mean  # larger patterns bound better
    assert made.about.endswith("also read through 1 symmetry of the board")  # the main diagonal


@pytest.mark.parametrize("spec", ["eight_puzzle", "amida"])
def test_one_pattern_of_every_piece_is_the_exact_distance(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The eight puzzle (one piece a move: the tiles' table) and the amida ladder (two pieces
    a move: every move counted)."""
    monkeypatch.setenv("PUZINT_KEEP_PATTERNS", "0")
    made = derived(spec, 10**9)
    estimate = made.compiled.estimate
    assert estimate is not None
    distances = exact_distances(load(SPECS / f"{spec}.puz"))
    assert all(estimate(state) == far for state, far in distances.items())


@pytest.mark.parametrize("most_states", [2000, 200000])
def test_both_engines_read_the_tables_alike(most_states: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """IDA* visits the same states in the same order on both engines: equal counts mean the
    kernel's lookup gave every state the Python evaluator's value."""
    monkeypatch.setenv("PUZINT_KEEP_PATTERNS", "0")
    made = derived("eight_puzzle", most_states).compiled
    python = search(made, method="idastar", engine="python")
    kernel = search(made, method="idastar", engine="compiled")
    assert (python.length, kernel.length) == (31, 31)
    assert python.states == kernel.states


def test_the_tables_are_kept_and_read_back_only_when_sound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZINT_CACHE_DIR", str(tmp_path))
    found = abstraction(load(SPECS / "eight_puzzle.puz"))
    assert not isinstance(found, str)
    groups = patterns_module.choose(found, 20000).groups
    made = patterns_module.build(found, groups, Limits())
    key = patterns_module.key(found, groups)
    patterns_module.keep(key, made)
    assert patterns_module.cached(key) is patterns_module.cached(key)  # kept in this process too
    monkeypatch.setattr(patterns_module, "_read_here", {})  # as in a process of its own: from the disk
    again = patterns_module.cached(key)
    assert isinstance(again, PatternSet) and again.about.endswith("read from the cache")
    assert [t.distances for t in again.tables] == [t.distances for t in made.tables]
    (kept,) = (tmp_path / "patterns").iterdir()
    data = bytearray(kept.read_bytes())
    data[-1] ^= 1
    kept.write_bytes(bytes(data))
    monkeypatch.setattr(patterns_module, "_read_here", {})
    assert patterns_module.cached(key) is None  # a changed table is not read (it is built again)
    kept.unlink()
    kept.symlink_to(tmp_path / "elsewhere")
    assert patterns_module.cached(key) is None  # nor a link put in its place


def test_the_kernel_reads_unreached_and_dead_as_the_model_says() -> None:
    from puzint.kernel.machine import bytecode
    from puzint.model import patterns as model

    assert (bytecode.UNREACHED, bytecode.DEAD) == (model.UNREACHED, model.DEAD)
