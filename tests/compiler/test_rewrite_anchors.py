"""A rewrite move's placements are matched against a state through their anchors (the cell
each checks whose value was rarest in the first state expanded): the same successors, in the
same order, as matching every placement, on states whose values are spread otherwise too."""

from __future__ import annotations

import itertools

from puzint.compiler import CompiledPuzzle
from puzint.compiler.families import GeneralFamily
from puzint.runner import load, search

from tests.conftest import SPECS, compiled_from


def every_successor(compiled: CompiledPuzzle, state: bytes, anchored: bool) -> list[bytes]:
    """The successors in the order made (the moves' numbers are given as first met, and differ
    between two compiled copies: the states say the same)."""
    for family in compiled.families:
        if isinstance(family, GeneralFamily) and not anchored:
            family._anchors = ()  # every placement tried
    return [bytes(child) for child, _ in compiled.expand(state)]


def test_a_sokoban_walk_and_push_match_only_round_the_worker() -> None:
    compiled = load(SPECS / "microban.puz", {"n": "1", "metric": "pushes"})
    general = [f for f in compiled.families if isinstance(f, GeneralFamily) and f.form_instances]
    assert general
    states = [compiled.start]
    for state in states[:200]:
        anchored = every_successor(compiled, state, anchored=True)
        states.extend(child for child in anchored if child not in states)
    anchors = [f._anchors for f in general]
    assert all(anchors), "a worker is a rare value: every family anchors its placements on it"
    for state in states[:200]:
        assert every_successor(compiled, state, anchored=True) == every_successor(
            load(SPECS / "microban.puz", {"n": "1", "metric": "pushes"}), state, anchored=False
        )


def test_placements_anchored_on_a_value_that_becomes_common() -> None:
    """Anchored on the rarest value of the start (one X), then run on states where X is
    everywhere and nowhere: the successors are still every placement's that matches."""
    text = (
        "board grid 3 x 3\npiece X stone\npiece O stone\n"
        "move turn: X O -> O X along orthogonal\n"
        "start:\n    X O O\n    O O O\n    O O O\ngoal:\n    O O O\n    O O O\n    O O X\n"
    )
    compiled = compiled_from(text)
    plain = compiled_from(text)
    every_successor(compiled, compiled.start, anchored=True)
    x, o = compiled.start[0], compiled.start[1]
    for values in itertools.product((x, o), repeat=9):
        state = bytes(values) + compiled.start[9:]
        assert every_successor(compiled, state, anchored=True) == every_successor(plain, state, anchored=False)
    assert search(compiled, engine="python").length == search(plain, engine="python").length == 4
