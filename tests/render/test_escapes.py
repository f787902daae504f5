"""A spec's text reaches the terminal with its control characters written out, never sent: a
title cannot clear the screen or set the window's title, in the text output, the errors, the
progress line and `check`; rich's markup and emoji codes in a spec are printed as written;
JSON and YAML stay the same data, SVG, GraphML and DOT stay valid documents."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from xml.dom import minidom

import pytest
import yaml
from puzint.cli import Output, main
from puzint.escapes import visible
from puzint.render import text
from puzint.render.progress import SearchProgress
from puzint.runner import load
from rich.text import Text

from tests.conftest import SPECS

ESC = "\x1b"
EVIL = f"""puzzle "Frog{ESC}]0;PWNED\x07 jump{ESC}[2J [bold red]red[/] :smile:\x0c"
about "about {ESC}[31mred{ESC}[0m \x9b31m \u202egnp.exe"

param n = 2 "frogs{ESC}[5m"
param word = "a{ESC}[2Jb" "a text parameter"
require n >= 1 "at least {ESC}[2J one"
require word != "" "a word"

board line 2*n + 1
piece B black "black{ESC}[1m frog" drawn "{ESC}"
piece W white "white frog [red]x[/red]" drawn "○"

start B*n _ W*n
goal  W*n _ B*n

move slide: B _ -> _ B along right
move jump:  B W _ -> _ W B along right
move slide: W _ -> _ W along left
move jump:  W B _ -> _ B W along left
"""
TITLE = "Frog\\x1b]0;PWNED\\x07 jump\\x1b[2J [bold red]red[/] :smile:\\x0c"
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")  # a newline aside


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    path = tmp_path / "evil.puz"
    path.write_text(EVIL, encoding="utf-8")
    (tmp_path / "evil.yaml").write_text("cases:\n  - length: 8\n  - params: {n: 1}\n    length: 5\n")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- the rule


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b[2J", "\\x1b[2J"),
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),
        ("a\rb\tc\nd", "a\\rb\\tc\\nd"),
        ("\x7f\x9b", "\\x7f\\x9b"),  # DEL, and the C1 CSI that some terminals obey
        ("\u202egnp.exe\u2066", "\\u202egnp.exe\\u2066"),  # the controls that reorder a line
        ("\u2028", "\\u2028"),
    ],
)
def test_control_characters_are_written_out(raw: str, shown: str) -> None:
    assert visible(raw) == shown
    assert visible(shown) == shown  # once written out, there is nothing more to escape


def test_other_text_is_left_as_it_is() -> None:
    assert visible("Frog jump ● ○ · → é 日本 \\x1b") == "Frog jump ● ○ · → é 日本 \\x1b"


# ---- the text output


def test_the_heading_shows_the_specs_text_escaped_and_unmarked(evil: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", str(evil), "--quiet")
    assert (code, err) == (0, "")
    assert out.splitlines()[:4] == [
        TITLE,  # the parameters, escaped, fold under a title this long
        "n=2 word=a\\x1b[2Jb",
        "about \\x1b[31mred\\x1b[0m \\x9b31m \\u202egnp.exe",
        "\\x1b black\\x1b[1m frog · ○ white frog [red]x[/red]",
    ]
    assert not RAW.search(out)
    assert "1  slide  \\x1b 2 → 3" in out  # the glyph, escaped, in every move


@pytest.mark.parametrize("listing", [["--all"], ["--all", "--draw"], ["--count"], ["--reach"]])
def test_every_listing_escapes(evil: Path, capsys: pytest.CaptureFixture[str], listing: list[str]) -> None:
    code, out, err = run(capsys, "run", str(evil), "--quiet", *listing)
    assert (code, err) == (0, "")
    assert out.startswith(TITLE) and not RAW.search(out)


def test_explain_quotes_the_rules_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "farmer.puz"
    farmer = (SPECS / "farmer.puz").read_text(encoding="utf-8")
    spec.write_text(farmer.replace("goat is here)\n", f'goat is here) or "{ESC}[2J" == "x"\n', 1), encoding="utf-8")
    code, out, err = run(capsys, "run", str(spec), "--explain")
    assert (code, err) == (0, "")
    assert 'or "\\x1b[2J" == "x"' in out and not RAW.search(out)


def test_a_terminal_gets_rich_colours_and_the_specs_text_escaped(evil: Path) -> None:
    file = io.StringIO()
    console = Output(file=file, force_terminal=True, width=100)
    text.heading(load(evil).puzzle, console)
    shown = file.getvalue()
    assert "\x1b[1m" in shown  # rich's bold: a terminal gets its styles
    assert "\x1b]" not in shown and "\x1b[2J" not in shown and "\x07" not in shown
    assert TITLE in shown


def test_the_commands_consoles_escape_text_that_was_not_escaped_before() -> None:
    """Text that reached the console by a way not thought of: escaped all the same."""
    file = io.StringIO()
    console = Output(file=file, force_terminal=True, width=100, highlight=False)
    console.print(Text(f"a{ESC}[2Jb\u202ec"), "plain", f"{ESC}]0;t")
    shown = file.getvalue()
    assert "a\\x1b[2Jb\\u202ec plain \\x1b]0;t" in shown
    assert "\x1b[2J" not in shown and "\x1b]" not in shown


def test_the_progress_line_shows_its_text_as_written() -> None:
    file = io.StringIO()
    with SearchProgress(Output(file=file, force_terminal=True), lambda: 0.0) as progress:
        progress.notice(f"[bold]compiling[/bold] {ESC}[2J")
        assert progress.line() == "[bold]compiling[/bold] \\x1b[2J"
    assert "\x1b[2J" not in file.getvalue()


# ---- errors and check


def test_an_error_escapes_the_message_and_the_echoed_line(evil: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "run", str(evil), "-p", "n=0")
    assert (code, out) == (2, "")
    assert err.splitlines()[:3] == [
        f"{evil}:6:9: at least \\x1b[2J one (with n=0, word=a\\x1b[2Jb)",
        '   6 | require n >= 1 "at least \\x1b[2J one"',
        "     |         ^^^^^^",
    ]


def test_the_caret_stays_under_the_mistake_after_an_escape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "caret.puz"
    spec.write_text(f'puzzle "{ESC}[2J"\nboard line 3 ) x\n', encoding="utf-8")
    spec.write_text(f'puzzle "x" # {ESC}]0;t\nboard line 3 {ESC} )\n', encoding="utf-8")
    code, _, err = run(capsys, "run", str(spec))
    assert code == 2
    assert err.splitlines()[1:3] == ["   2 | board line 3 \\x1b )", "     |              ^^^^"]


def test_a_file_name_is_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "run", str(tmp_path / f"no{ESC}]0;t{ESC}[2J.puz"))
    assert code == 2
    assert err == f"{tmp_path}/no\\x1b]0;t\\x1b[2J.puz: cannot read the spec: No such file or directory\n"


def test_check_prints_file_names_as_written(evil: Path, capsys: pytest.CaptureFixture[str]) -> None:
    named = evil.with_name(f"[bold]x[red]:smile:{ESC}[2J.puz")
    evil.rename(named)
    evil.with_suffix(".yaml").rename(named.with_suffix(".yaml"))
    code, out, err = run(capsys, "check", str(named))
    assert (code, err) == (1, "")  # n=1 takes 3 moves, not the 5 the file expects
    lines = [re.sub(r"\d+\.\d+ s", "# s", line) for line in out.splitlines()]
    assert lines[:5] == [
        f"{named.parent}/[bold]x[red]:smile:\\x1b[2J.puz",
        "  ok   defaults: length 8 (# s)",
        "  FAIL n=1 (# s)",
        "       length: expected 5, got 3",
        "1 spec(s), 2 case(s): 1 passed, 1 failed · # s",
    ]


# ---- data and pictures


def test_json_is_the_same_text_with_every_control_escaped(evil: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(evil), "--format", "json")
    assert code == 0 and not RAW.search(out)
    data = json.loads(out)
    assert data["puzzle"] == f"Frog{ESC}]0;PWNED\x07 jump{ESC}[2J [bold red]red[/] :smile:\x0c"
    assert data["params"]["word"] == f"a{ESC}[2Jb"


def test_yaml_is_the_same_data(evil: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(evil), "--format", "yaml")
    assert code == 0 and ESC not in out and "\x07" not in out
    assert yaml.safe_load(out)["puzzle"] == f"Frog{ESC}]0;PWNED\x07 jump{ESC}[2J [bold red]red[/] :smile:\x0c"


def test_svg_stays_a_valid_document(evil: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "run", str(evil), "--format", "svg")
    assert code == 0
    texts = [node.firstChild.data for node in minidom.parseString(out).getElementsByTagName("text")]
    assert texts[0] == f"{TITLE} n=2 word=a\\x1b[2Jb"
    assert "1. \\x1b 2→3" in texts


@pytest.mark.parametrize("fmt", ["dot", "graphml"])
def test_graphs_stay_valid_documents(evil: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "graph", str(evil), "--format", fmt)
    assert code == 0 and not RAW.search(out)
    if fmt == "graphml":
        minidom.parseString(out)
    else:
        assert out.startswith('digraph "Frog\\\\x1b]0;PWNED\\\\x07 jump')
