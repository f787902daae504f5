"""`run --format svg --animate`: one SVG whose frames, one per state of the solution, are
shown one at a time by CSS animation, a second each, over and over."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from puzint.cli import main
from puzint.render import svg
from puzint.runner import load, search

from tests.conftest import SPECS

NS = "{http://www.w3.org/2000/svg}"


def test_one_frame_per_state_each_shown_for_its_second_of_the_cycle() -> None:
    frog = load(SPECS / "frog.puz", {"n": "1"})
    path = search(frog).path
    picture = svg.animated_svg(frog, path, "Frog jump n=1")
    root = ET.fromstring(picture)  # the file parses
    frames = [g for g in root.iter(f"{NS}g") if g.get("class") == "frame"]
    assert len(path) == 3 and len(frames) == 4  # the start and each move
    style = root.find(f"{NS}style")
    assert style is not None and style.text is not None
    assert "animation: frame 4s step-end infinite" in style.text
    assert "0% { opacity: 1 } 25.0000% { opacity: 0 }" in style.text
    delays = [float(re.fullmatch(r"animation-delay: (-?[\d.]+)s", g.get("style", ""))[1]) for g in frames]  # type: ignore[index]
    assert delays == [0, -3, -2, -1]  # frame i is at the start of its cycle at i seconds
    captions = ["".join(t.itertext()) for g in frames for t in g.iter(f"{NS}text") if t.get("font-size") == "13"][:4]
    assert captions[0] == "start"


def test_the_command_writes_it_and_refuses_it_with_another_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(SPECS / "frog.puz"), "-p", "n=1", "--format", "svg", "--animate"]) == 0
    out = capsys.readouterr().out
    assert out.count('class="frame"') == 4 and "@keyframes frame" in out
    assert main(["run", str(SPECS / "frog.puz"), "--format", "html", "--animate"]) == 2
    assert "--animate draws an animated SVG: it goes with --format svg (not --format html)" in capsys.readouterr().err
