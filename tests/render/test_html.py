"""`--format html`: a solution as a page with a slider, one board per state, the first shown;
the spec's text escaped."""

from __future__ import annotations

import html.parser
import re

import pytest
from puzint.cli import main
from puzint.render.html import solution_html
from puzint.runner import load, search

from tests.conftest import SPECS


class Steps(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.steps: list[bool] = []  # each step: hidden or not
        self.slider: dict[str, str | None] = {}
        self.svgs = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "div" and found.get("class") == "step":
            self.steps.append("hidden" in found)
        if tag == "input" and found.get("id") == "slider":
            self.slider = found
        if tag == "svg":
            self.svgs += 1


def test_a_step_for_every_state_and_a_slider_over_them() -> None:
    frog = load(SPECS / "frog.puz", {"n": "2"})
    path = search(frog).path
    page = solution_html(frog, path, "Frog jump n=2")
    parsed = Steps()
    parsed.feed(page)
    assert len(path) == 8 and parsed.steps == [False] + [True] * 8 and parsed.svgs == 9
    assert (parsed.slider["min"], parsed.slider["max"], parsed.slider["value"]) == ("0", "8", "0")
    assert "<title>Frog jump n=2</title>" in page
    assert [int(n) for n in re.findall(r">(\d+)\. [BW] ", page)] == list(range(1, 9))  # each step's caption


def test_the_specs_text_is_escaped() -> None:
    frog = load(SPECS / "frog.puz", {"n": "1"})
    page = solution_html(frog, search(frog).path, "<script>alert(1)</script>\x1b[2J")
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;\\x1b[2J" in page


def test_the_command_writes_the_page(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", str(SPECS / "frog.puz"), "--format", "html"]) == 0
    parsed = Steps()
    parsed.feed(capsys.readouterr().out)
    assert len(parsed.steps) == 16  # the start and fifteen moves
    assert main(["run", str(SPECS / "frog.puz"), "--format", "html", "--count"]) == 2
    assert "--format html draws one solution" in capsys.readouterr().err


def test_an_arrow_key_moves_one_step_even_where_the_slider_has_the_focus() -> None:
    """The range input steps on ←/→ by itself: the page's handler takes the key from it."""
    frog = load(SPECS / "frog.puz", {"n": "1"})
    page = solution_html(frog, search(frog).path, "Frog jump n=1")
    for key, step in (("ArrowLeft", "- 1"), ("ArrowRight", "+ 1")):
        assert f'if (e.key === "{key}") {{ e.preventDefault(); show(Number(slider.value) {step}); }}' in page
