"""The pictures as a puzzle's readers know it: blocks as one shape in their piece's colour,
the goal's targets and the exit marked, walls drawn, a triangle as a triangle, Hanoi's discs by
size on pegs, jugs filled to their levels, couples in related colours, no internals."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from puzint.cli import main

from tests.conftest import SPECS

SVG = "{http://www.w3.org/2000/svg}"


def picture(capsys: pytest.CaptureFixture[str], spec: str, *argv: str) -> ET.Element:
    assert main(["run", str(SPECS / f"{spec}.puz"), *argv, "--format", "svg"]) == 0
    return ET.fromstring(capsys.readouterr().out)


def panels(root: ET.Element) -> list[ET.Element]:
    return root.findall(f"{SVG}g")


def test_each_vehicle_is_one_colour_and_the_exit_is_marked(capsys: pytest.CaptureFixture[str]) -> None:
    start = panels(picture(capsys, "rush_hour"))[0]
    board = start.find(f"{SVG}g")
    assert board is not None
    colour_at = {}
    for rect in board.findall(f"{SVG}rect"):
        if rect.get("fill") not in ("#f3efe6", "none"):
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
            cx, cy = x + float(rect.get("width", 0)) / 2, y + float(rect.get("height", 0)) / 2
            colour_at[(int(cy // 40), int(cx // 40))] = rect.get("fill")
    layout = ["AAA__B", "__CDDB", "XXCEF_", "GHHEFI", "G_JEFI", "__JKKK"]  # the spec's start
    vehicles: dict[str, set[str | None]] = {}
    for r, row in enumerate(layout):
        for c, letter in enumerate(row):
            if letter != "_":
                vehicles.setdefault(letter, set()).add(colour_at[(r, c)])
    assert len(colour_at) == 28 and all(len(colours) == 1 for colours in vehicles.values())
    assert len({next(iter(colours)) for colours in vehicles.values()}) == 12  # twelve vehicles, twelve colours
    assert sorted(t.text or "" for t in board.findall(f"{SVG}text")) == sorted("ABCDEFGHIJKX")  # a name each
    marks = [c for c in board.findall(f"{SVG}circle") if c.get("stroke-dasharray") == "5 3"]
    assert len(marks) == 2  # where X must end: the two cells by the exit


def test_sokoban_has_walls_and_targets(capsys: pytest.CaptureFixture[str]) -> None:
    start = panels(picture(capsys, "sokoban"))[0]
    walls = [r for r in start.iter(f"{SVG}rect") if r.get("fill") == "#5d4037"]
    targets = [c for c in start.iter(f"{SVG}circle") if c.get("stroke-dasharray") == "5 3"]
    assert len(walls) == 27 and len(targets) == 2  # the frame of 24 and three walls inside; two targets
    captions = [t.text for t in start.iter(f"{SVG}text")]
    assert "@" in captions and "$" in captions and "M" not in captions  # as the captions name them


def test_a_board_with_cells_on_its_edge_has_no_walls(capsys: pytest.CaptureFixture[str]) -> None:
    start = panels(picture(capsys, "peg_english"))[0]
    assert not [r for r in start.iter(f"{SVG}rect") if r.get("fill") == "#5d4037"]


def test_a_triangular_board_is_drawn_as_a_triangle_of_holes_on_its_lattice(capsys: pytest.CaptureFixture[str]) -> None:
    """Holes (circles), not squares laid like bricks, joined by the lattice's lines."""
    start = panels(picture(capsys, "peg_triangle"))[0]
    holes = [c for c in start.iter(f"{SVG}circle") if c.get("r") == "17"]
    assert not [r for r in start.iter(f"{SVG}rect") if r.get("width") == "40" and r.get("height") == "40"]
    rows: dict[float, list[float]] = {}
    for c in holes:
        rows.setdefault(float(c.get("cy", 0)), []).append(float(c.get("cx", 0)))
    middles = {round(min(xs) + (max(xs) - min(xs)) / 2) for xs in rows.values()}
    assert [len(xs) for _, xs in sorted(rows.items())] == [1, 2, 3, 4, 5] and len(middles) == 1  # each row centred
    assert len(list(start.iter(f"{SVG}line"))) == 30  # 5 rows: 10 + 10 + 10 neighbours along the three lines


def test_lights_are_lit_or_dark_and_the_pressed_one_is_ringed(capsys: pytest.CaptureFixture[str]) -> None:
    first, pressed = panels(picture(capsys, "lights_out"))[:2]
    lamps = [r for r in first.iter(f"{SVG}rect") if r.get("rx") == "6"]
    assert [r.get("fill") for r in lamps] == ["#ffd54f"] * 9 and not list(first.iter(f"{SVG}circle"))
    after = [r.get("fill") for r in pressed.iter(f"{SVG}rect") if r.get("rx") == "6"]
    assert after == ["#455a64", "#455a64", "#ffd54f", "#455a64"] + ["#ffd54f"] * 5  # r1c1 pressed: it and 2 more
    rings = [r for r in pressed.iter(f"{SVG}rect") if r.get("stroke") == "#d32f2f"]
    assert len(rings) == 1 and (rings[0].get("x"), rings[0].get("y")) == ("1.5", "1.5")
    assert not [r for r in pressed.iter(f"{SVG}rect") if r.get("stroke-dasharray")]  # no cell said emptied


def test_a_queen_is_a_disc_in_the_middle_of_its_square(capsys: pytest.CaptureFixture[str]) -> None:
    board = panels(picture(capsys, "queens"))[0]
    discs = [c for c in board.iter(f"{SVG}circle")]
    assert len(discs) == 8
    for disc in discs:
        assert (float(disc.get("cx", 0)) - 20) % 40 == 0 and (float(disc.get("cy", 0)) - 20) % 40 == 0


def test_hanoi_discs_are_as_wide_as_they_are_large(capsys: pytest.CaptureFixture[str]) -> None:
    start = panels(picture(capsys, "hanoi"))[0]
    discs = {t.text: w for t, w in _discs(start)}
    assert list(discs) == ["1", "2", "3", "4"] and discs["1"] < discs["2"] < discs["3"] < discs["4"]


def _discs(panel: ET.Element) -> list[tuple[ET.Element, float]]:
    rects = [r for r in panel.iter(f"{SVG}rect") if r.get("rx") == "5"]
    texts = [t for t in panel.iter(f"{SVG}text") if (t.text or "").isdigit()]
    return sorted(zip(texts, (float(r.get("width", 0)) for r in rects), strict=True), key=lambda tw: tw[0].text or "")


def test_couples_share_a_hue(capsys: pytest.CaptureFixture[str]) -> None:
    start = panels(picture(capsys, "jealous_husbands"))[0]
    fills = {}
    for circle, text in zip(
        start.iter(f"{SVG}circle"),
        (t for t in start.iter(f"{SVG}text") if re.fullmatch(r"[HW]\d", t.text or "")),
        strict=False,
    ):
        fills[text.text] = circle.get("fill")
    assert len(set(fills.values())) == 6
    assert fills["H1"] == "#c62828" and fills["W1"] == "#ef9a9a"  # one hue, dark husband, light wife


def test_the_hand_and_the_cursor_are_not_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    root = picture(capsys, "number_circle")
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "hand" not in texts and not any(t.startswith("cursor") for t in texts)


def test_places_a_carrier_crosses_between_have_water_between_and_the_boat_at_its_bank(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Read from the spec's places and its carrier (`carrier boat at left`): never its name."""
    first, second = panels(picture(capsys, "jealous_husbands"))[:2]

    def boat_x(panel: ET.Element) -> float:
        (hull,) = [p for p in panel.iter(f"{SVG}path") if p.findtext(f"{SVG}title") == "boat"]
        return float(hull.get("d", "M0").split(",")[0][1:])

    rivers = [r for r in first.iter(f"{SVG}rect") if r.get("fill") == "#b3e5fc"]
    assert len(rivers) == 1
    left_edge = float(rivers[0].get("x", 0))
    right_edge = left_edge + float(rivers[0].get("width", 0))
    assert boat_x(first) - left_edge < 5  # at the start, against the left bank
    assert right_edge - boat_x(second) < 30  # after the first crossing, against the right bank


def test_gauges_alone_are_each_on_a_card(capsys: pytest.CaptureFixture[str]) -> None:
    drawn = panels(picture(capsys, "water_jugs"))
    assert all(len([r for r in p.iter(f"{SVG}rect") if r.get("fill") == "#f7f9fb"]) == 1 for p in drawn)
