"""docs/gallery.md: a picture of every shipped spec, current (its fingerprints match the specs
and the drawing code; a stale one says how to redraw it), and each picture a valid SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from puzint.gallery import PAGE, PICTURES, entries, picture

DOCS = Path(__file__).resolve().parent.parent / "docs"
REDRAW = "the gallery is out of date: run `puzint gallery docs` and commit docs/gallery.md and docs/gallery/"


def recorded() -> dict[str, str]:
    text = (DOCS / PAGE).read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- fingerprint (\S+) (\S+) -->", text))


def test_every_shipped_spec_has_a_current_picture() -> None:
    fingerprints = recorded()
    shipped = {entry.name: entry.fingerprint() for entry in entries()}
    assert set(fingerprints) == set(shipped), REDRAW
    stale = sorted(name for name, print_ in shipped.items() if fingerprints[name] != print_)
    assert not stale, f"{REDRAW} (stale: {', '.join(stale)})"
    drawn = {path.stem for path in (DOCS / PICTURES).glob("*.svg")}
    assert drawn == set(shipped), REDRAW


def test_every_picture_is_a_document_with_a_board_per_state() -> None:
    for path in sorted((DOCS / PICTURES).glob("*.svg")):
        root = ET.parse(path).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", path.name
        assert root.findall("{http://www.w3.org/2000/svg}g"), f"{path.name} draws nothing"


def test_a_picture_drawn_again_is_the_one_in_the_gallery() -> None:
    """Hanoi's shortest solution is the only one: its picture is the same wherever it is drawn."""
    (hanoi,) = [entry for entry in entries() if entry.name == "hanoi"]
    assert picture(hanoi) == (DOCS / PICTURES / "hanoi.svg").read_text(encoding="utf-8")
