"""The page's files: the grammar it colours with is the editors' own, and it fetches nothing
from another site (no asset from the internet)."""

from __future__ import annotations

import re
from pathlib import Path

from puzint.serve.app import STATIC

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_colours_with_the_editors_grammar() -> None:
    editors = ROOT / "editors" / "textmate" / "puz.tmLanguage.json"
    assert (STATIC / "puz.tmLanguage.json").read_text(encoding="utf-8") == editors.read_text(encoding="utf-8")


def test_the_page_loads_nothing_from_elsewhere() -> None:
    for path in STATIC.iterdir():
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), path.name
            addresses = set(re.findall(r"https?://[^\s\"'`)]+", text)) - {"http://www.w3.org/2000/svg"}  # a name
            assert addresses == set(), path.name
