"""`--format svg`: the solution as a strip of boards (the amida as its ladder). Each picture
is parsed as XML and rendered to PNG, and the pixels are looked at: a board per state, the
moved pieces shaded, every rung of the ladder drawn."""

from __future__ import annotations

import io
import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from puzint.cli import main

SPECS = Path(__file__).resolve().parents[2] / "specs"
SVG = "{http://www.w3.org/2000/svg}"
MOVED = (0xFF, 0xD5, 0x4F)


def render_png(svg: str):  # type: ignore[no-untyped-def]
    """The picture as cairo draws it; without cairo here, skipped (never in CI, which sets
    PUZINT_REQUIRE_PNG)."""
    try:
        import cairosvg
        from PIL import Image
    except (ImportError, OSError) as exc:
        if os.environ.get("PUZINT_REQUIRE_PNG"):
            raise
        pytest.skip(f"cannot render SVG to PNG here: {exc}")
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    return Image.open(io.BytesIO(png)).convert("RGB")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def solution_length(capsys: pytest.CaptureFixture[str], spec: str, *params: str) -> int:
    code, out, _ = run(capsys, "run", str(SPECS / spec), *params, "--format", "json")
    assert code == 0
    length = json.loads(out)["length"]
    assert isinstance(length, int)
    return length


@pytest.mark.parametrize(
    ("spec", "params"),
    [
        ("frog.puz", ["-p", "n=2"]),
        ("knights.puz", []),
        ("jealous_husbands.puz", []),
        ("guarini_graph.puz", []),
        ("hanoi.puz", ["-p", "discs=3"]),
        ("lights_out.puz", ["-p", "n=3"]),
        ("water_jugs.puz", []),
    ],
)
def test_a_board_for_every_state_with_the_moved_pieces_shaded(
    capsys: pytest.CaptureFixture[str], spec: str, params: list[str]
) -> None:
    length = solution_length(capsys, spec, *params)
    code, out, err = run(capsys, "run", str(SPECS / spec), *params, "--format", "svg")
    assert code == 0 and err == ""
    root = ET.fromstring(out)
    panels = root.findall(f"{SVG}g")
    assert len(panels) == length + 1
    captions = [panel.find(f"{SVG}text") for panel in panels]
    assert [c.text for c in captions if c is not None][:2] == ["start", captions[1].text]  # type: ignore[union-attr]
    assert all(re.match(rf"{n}\. ", c.text or "") for n, c in enumerate(captions[1:], 1) if c is not None)
    image = render_png(out)
    assert image.size == (round(float(root.get("width", 0))), round(float(root.get("height", 0))))
    colours = {colour for _, colour in image.getcolors(maxcolors=1 << 20)}
    if spec == "water_jugs.puz":  # no board and no places: each state is its jugs, filled to their levels
        _, data, _ = run(capsys, "run", str(SPECS / spec), "--format", "json")
        boards = ["S=0 | B=0"] + [move["board"] for move in json.loads(data)["moves"]]
        drawn = [
            " | ".join(t.text.replace(" = ", "=") for t in p.findall(f".//{SVG}text") if " = " in (t.text or ""))
            for p in panels
        ]
        assert drawn == boards
    else:
        assert MOVED in colours and all(p.findall(f".//{SVG}rect") or p.findall(f".//{SVG}circle") for p in panels)


def test_the_amida_is_drawn_as_its_ladder(capsys: pytest.CaptureFixture[str]) -> None:
    length = solution_length(capsys, "amida.puz")
    code, out, _ = run(capsys, "run", str(SPECS / "amida.puz"), "--format", "svg")
    root = ET.fromstring(out)
    lines = root.findall(f".//{SVG}line")
    verticals = [ln for ln in lines if ln.get("x1") == ln.get("x2")]
    rungs = [ln for ln in lines if ln.get("y1") == ln.get("y2")]
    assert code == 0 and len(verticals) == 6 and len(rungs) == length
    image = render_png(out)
    red = sum(
        1 for x in range(image.width) for y in range(image.height) if image.getpixel((x, y)) == (0xC6, 0x28, 0x28)
    )
    assert red > 30 * length  # each rung a visible stroke


def test_a_search_all_spec_draws_each_solution_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(SPECS / "queens.puz"), "-p", "n=5", "--format", "svg")
    root = ET.fromstring(out)
    assert code == 0 and [p.find(f"{SVG}text").text for p in root.findall(f"{SVG}g")] == ["1", "2"]  # type: ignore[union-attr]
    render_png(out)


def test_nothing_to_draw_is_said_on_stderr(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "stuck.puz"
    spec.write_text("board line 4\npiece B b\nstart B _ B _\ngoal _ B _ B\nmove s: B _ -> _ B along left\n")
    code, out, err = run(capsys, "run", str(spec), "--format", "svg")
    assert code == 4 and out == "" and err.startswith("puzint: nothing to draw: no solution")


def test_svg_with_a_question_it_cannot_draw_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", str(SPECS / "frog.puz"), "--count", "--format", "svg")
    assert code == 2 and out == "" and "--format svg draws one solution" in err


def test_a_filled_grid_is_drawn_as_a_puzzle_page_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    """The Sudoku's boxes as thick lines (4 across, 4 down), its 21 givens in bold and the 60
    cells the solution fills in blue, each a digit (no disks)."""
    assert main(["run", str(SPECS / "sudoku.puz"), "--format", "svg"]) == 0
    svg = capsys.readouterr().out
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    thick = [line for line in root.iter(f"{ns}line") if line.get("stroke-width") == "2.5"]
    assert len(thick) == 8
    digits = [t for t in root.iter(f"{ns}text") if (t.text or "").isdigit() and t.get("font-size") == "22"]
    assert sum(t.get("font-weight") == "bold" for t in digits) == 21
    assert sum(t.get("fill") == "#1565c0" for t in digits) == 60
    assert not list(root.iter(f"{ns}circle"))


def test_a_permutation_of_cells_is_captioned_by_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    """A turn of the pocket cube moves no one piece from cell to cell: its caption is the
    move's name, never a bare number."""
    code, out, _ = run(capsys, "run", str(SPECS / "pocket_cube.puz"), "--format", "svg")
    assert code == 0
    captions = [panel.find(f"{SVG}text") for panel in ET.fromstring(out).findall(f"{SVG}g")]
    texts = [c.text or "" for c in captions[1:] if c is not None]
    assert texts and all(re.fullmatch(r"\d+\. \S+", text) for text in texts)
