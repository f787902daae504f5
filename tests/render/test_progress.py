"""The progress line: nothing for a short search, then states, depth, rate and time."""

from __future__ import annotations

import io

from puzint.render.progress import SearchProgress
from puzint.search import Limits, bfs
from rich.console import Console

from tests.search.test_engine import chain


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_nothing_is_shown_in_the_first_half_second() -> None:
    clock = Clock()
    progress = SearchProgress(Console(file=io.StringIO(), force_terminal=True), clock)
    clock.now += 0.4
    progress(5000, "depth 3")
    assert progress.line() is None


def test_a_long_search_shows_states_depth_rate_and_time() -> None:
    clock = Clock()
    with SearchProgress(Console(file=io.StringIO(), force_terminal=True), clock) as progress:
        clock.now += 2.0
        progress(10_000, "depth 7")
        line = progress.line()
    assert line is not None and line.startswith("searching: 10,000 states · depth 7 · 5,000 states/s · 2.0 s")


def test_the_line_names_the_engine_that_searches() -> None:
    clock = Clock()
    with SearchProgress(Console(file=io.StringIO(), force_terminal=True), clock) as progress:
        clock.now += 2.0
        progress(10_000, "depth 7", "python")
        line = progress.line()
    assert line is not None and line.startswith("searching (python): 10,000 states · depth 7")


def test_the_planner_tells_the_line_which_engine_runs() -> None:
    from puzint.runner import load, search

    from tests.conftest import SPECS

    engines: set[str] = set()
    limits = Limits()
    limits.progress = lambda states, at, engine: engines.add(engine)
    search(load(SPECS / "knights.puz", {"rows": "5"}), reach=True, limits=limits, engine="python")
    assert engines == {"python"}


def test_searches_report_their_depth_to_the_progress_line() -> None:
    seen: list[tuple[int, str]] = []
    limits = Limits()
    limits.progress = lambda states, at, engine: seen.append((states, at))
    bfs.shortest(chain(10_000), limits)
    assert seen and seen[-1][1] == f"depth {seen[-1][0] - 1}"


def test_a_notice_is_shown_at_once_and_the_search_line_follows() -> None:
    clock = Clock()
    with SearchProgress(Console(file=io.StringIO(), force_terminal=True), clock) as progress:
        progress.notice("compiling the search kernel")
        assert progress.line() == "compiling the search kernel"
        clock.now += 2.0
        progress(10_000, "depth 7")
        line = progress.line()
    assert line is not None and line.startswith("searching: 10,000 states")
