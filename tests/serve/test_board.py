"""The page finds the cell a click landed on by the centres serve/board.py gives: they must be
the centres of the cells render/svg.py draws (squares of a grid or a line, circles of a ring or
a graph), whatever the board's shape."""

from __future__ import annotations

import re

import pytest
from puzint.catalogue import resolve_spec
from puzint.render.svg import CELL, standalone, state_panel
from puzint.runner import load
from puzint.serve.board import cell_centres

SQUARE = re.compile(rf'<rect x="([\d.]+)" y="([\d.]+)" width="{CELL}" height="{CELL}"')
CIRCLE = re.compile(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="1[78]"')  # a ring's cells, a triangle's holes


def drawn_centres(svg: str) -> set[tuple[float, float]]:
    """The cells' centres in the picture: the board is drawn at (8, 8 + 24)."""
    squares = {(float(x) + CELL / 2 + 8, float(y) + CELL / 2 + 32) for x, y in SQUARE.findall(svg)}
    circles = {(float(x) + 8, float(y) + 32) for x, y in CIRCLE.findall(svg)}
    return squares | circles


@pytest.mark.parametrize("name", ["frog", "sokoban", "peg_triangle", "peg_english", "number_circle", "guarini_graph"])
def test_the_centres_are_the_cells_drawn(name: str) -> None:
    compiled = load(resolve_spec(name))
    centres = cell_centres(compiled)
    assert compiled.puzzle.board is not None
    assert len(centres) == compiled.puzzle.board.size
    svg = standalone(state_panel(compiled, compiled.start, None, ""))
    drawn = drawn_centres(svg)
    assert {(round(x, 3), round(y, 3)) for x, y in centres.values()} <= {(round(x, 3), round(y, 3)) for x, y in drawn}
