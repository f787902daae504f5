"""The playground in a real browser: Debian's Chromium, headless, driven by Playwright, against
`puzint serve` started for each test on a free port. A spec typed with a mistake shows the
diagnostic under the mistaken word and fixing it clears it; frog is played to its goal by
clicks on its cells (the moves of tests/plain/frog.py's shortest solution); Sokoban is solved
and stepped through; a shared link opens the spec it holds. Screenshots are kept in
tests/serve/artefacts/ (git-ignored).

Without Chromium (/usr/bin/chromium) or Playwright these tests are skipped, except where
PUZINT_REQUIRE_BROWSER is set (CI installs Chromium and sets it: there they must run)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.plain import frog

CHROMIUM = Path("/usr/bin/chromium")
ARTEFACTS = Path(__file__).parent / "artefacts"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT = 60_000  # ms: a worker's first start imports the compiler


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        return f"Playwright is not installed: {exc}"
    return None


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """`puzint serve` on a free port, with a folder of one spec named; its address."""
    missing = _missing()
    if missing is not None:
        if os.environ.get("PUZINT_REQUIRE_BROWSER"):
            pytest.fail(missing)
        pytest.skip(missing)
    folder = tmp_path / "specs"
    folder.mkdir()
    process = subprocess.Popen(
        [sys.executable, "-m", "puzint", "serve", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert found, f"the server said {line!r}; {process.stderr.read() if process.stderr else ''}"
        yield found.group(0)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def page(server: str, request: pytest.FixtureRequest) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            tab = browser.new_page(viewport={"width": 1400, "height": 1000})
            tab.set_default_timeout(WAIT)
            yield tab
            ARTEFACTS.mkdir(exist_ok=True)
            tab.screenshot(path=str(ARTEFACTS / f"{request.node.name}.png"), full_page=True)
        finally:
            browser.close()


def test_a_mistake_is_marked_where_it_is_and_a_shared_link_opens_the_spec(server: str, page) -> None:  # type: ignore[no-untyped-def]
    page.goto(server + "?open=frog")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#problems[data-checked]", state="attached")
    page.fill("#editor", "")
    page.locator("#editor").press_sequentially(
        'puzzle "slide"\nboard line 3\npiece B\nstart B _ _\ngoal _ _ B\nmove go: B _ -> _ B along rightt\n', delay=5
    )
    mark = page.locator("#highlight .problem")
    mark.wait_for()
    assert mark.inner_text() == "rightt"
    said = page.locator("#problems li").inner_text()
    assert said.startswith("6:27: a line of 3 cells has no direction 'rightt'"), said
    page.screenshot(path=str(_artefact("diagnostic.png")))
    page.locator("#editor").press("Backspace")  # the last line's newline
    page.locator("#editor").press("Backspace")  # the second t
    page.wait_for_selector("#problems li", state="detached")
    assert page.locator("#highlight .problem").count() == 0
    assert page.locator("#highlight .t-keyword", has_text="puzzle").count() == 1
    text = page.input_value("#editor")
    page.click("#share")
    link = page.input_value("#shared")
    assert "#spec=" in link
    other = page.context.browser.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready=true]")
    assert other.input_value("#editor") == text
    other.close()
    page.click("#editor")  # hover at the cursor: the word under it, as the language server says it
    page.locator("#editor").press("Control+Home")
    page.locator("#editor").press("ArrowDown")
    page.locator("#editor").press("ArrowDown")
    page.locator("#editor").press("End")
    page.wait_for_selector("#hover:has-text('piece')")
    page.locator("#editor").press("Control+End")
    page.locator("#editor").press_sequentially("\nmove back: B _ -> _ B along r", delay=5)
    page.wait_for_selector("#problems[data-checked]", state="attached")
    page.locator("#editor").press("Control+Space")
    page.wait_for_selector("#completions li:has-text('right')")
    page.locator("#editor").press("Enter")
    assert page.input_value("#editor").endswith("along right")


def _artefact(name: str) -> Path:
    ARTEFACTS.mkdir(exist_ok=True)
    return ARTEFACTS / name


def _click_cell(page, cell: str) -> None:  # type: ignore[no-untyped-def]
    """A click on the cell's centre, where the drawing puts the shape named after it."""
    box = page.locator(f'#board svg [data-cell="{cell}"]').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_frog_is_played_to_its_goal_by_clicks(server: str, page) -> None:  # type: ignore[no-untyped-def]
    page.goto(server + "?open=frog")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#load")
    page.wait_for_selector("#board[data-played='0']")
    solution = frog.shortest(3)
    assert len(solution) == 15
    for played, (start, _) in enumerate(solution, 1):
        _click_cell(page, str(start))
        page.wait_for_selector(f"#board[data-played='{played}']")
        if played == 7:
            page.keyboard.press("u")
            page.wait_for_selector("#board[data-played='6']")
            page.keyboard.press("r")
            page.wait_for_selector("#board[data-played='7']")
    page.wait_for_selector("#board[data-solved=true]")
    assert page.locator("#status").inner_text().startswith("Solved! 15 moves played")


def test_sokoban_is_solved_and_stepped_through(server: str, page) -> None:  # type: ignore[no-untyped-def]
    page.goto(server + "?open=sokoban")
    page.wait_for_selector("body[data-ready=true]")
    page.click("#solve")
    page.wait_for_selector("#viewer:not([hidden])")
    said = page.locator("#status").inner_text()
    moves = int(said.split()[0])
    assert page.locator("#step-where").inner_text() == f"0 / {moves}"
    page.click("#step-next")
    page.click("#step-next")
    assert page.locator("#step-where").inner_text() == f"2 / {moves}"
    page.keyboard.press("ArrowLeft")
    assert page.locator("#step-where").inner_text() == f"1 / {moves}"
    page.screenshot(path=str(_artefact("sokoban-step.png")))
    page.fill("#step-slider", str(moves - 2))  # the animation from two steps before the end
    assert page.locator("#step-where").inner_text() == f"{moves - 2} / {moves}"
    page.click("#step-play")
    page.wait_for_selector(f"#viewer[data-step='{moves}']")
    assert page.locator("#steps svg").count() == 1
