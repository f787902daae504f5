"""A page finds the cell a click lands on from the drawing itself (serve/static/app.js): every
cell of a board is one shape named by its `data-cell`, a square of a grid or a line, a circle
of a ring, a graph or a triangle, whatever the board's shape; walls and the holes of a frame
are no cell and are not named."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from puzint.catalogue import resolve_spec
from puzint.render.svg import CELL, standalone, state_panel
from puzint.runner import load

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("frog", "rect"),
        ("sokoban", "rect"),
        ("lights_out", "rect"),
        ("peg_english", "rect"),
        ("peg_triangle", "circle"),
        ("number_circle", "circle"),
        ("guarini_graph", "circle"),
    ],
)
def test_every_cell_is_one_shape_named_by_its_name(name: str, shape: str) -> None:
    compiled = load(resolve_spec(name))
    board = compiled.puzzle.board
    assert board is not None
    root = ET.fromstring(standalone(state_panel(compiled, compiled.start, None, "")))
    named = [element for element in root.iter() if "data-cell" in element.attrib]
    assert sorted(element.attrib["data-cell"] for element in named) == sorted(board.name(c) for c in range(board.size))
    assert {element.tag for element in named} == {SVG + shape}
    sizes = {element.attrib.get("width") or str(2 * float(element.attrib["r"])) for element in named}
    assert len(sizes) == 1 and float(sizes.pop()) >= CELL - 6  # a cell's own shape, not a mark inside it
