"""`puzint lsp` spoken to as an editor speaks to it: `python -m puzint lsp` in a subprocess,
real LSP messages over its stdin and stdout (tests/lsp/client.py), every answer awaited with a
timeout. Diagnostics come at their exact ranges (in UTF-16 units, or the encoding the client
asks for) with the messages `puzint run` prints; hover, definition and completion find the
names the spec declares; the server survives a failing handler and ends on exit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from puzint.cli import main

from .client import TIMEOUT, Client

FROG = (Path(__file__).resolve().parents[2] / "specs" / "frog.puz").read_text(encoding="utf-8")
# The frog jump with a word too many on line 7, after an emoji (two UTF-16 units, one character)
# and a ● (one unit): the mistake is at Python column 40, UTF-16 character 40 (0-based).
BAD = """\
puzzle "Frog jump"

param n = 3 "frogs of each colour"

board line 2*n + 1
piece B black "black frog" drawn "●"
piece W white "white 🐸 frog" drawn "○" sideways

start B*n _ W*n
goal  W*n _ B*n

move slide: B _ -> _ B along right
"""
SIDEWAYS = "unexpected 'sideways'\nexpected one of: 'block', 'drawn', 'per', 'shape', 'with', the end of the line"
FIXED = BAD.replace(" sideways", "")
WORDS_OF_CELLS = """\
puzzle "Swap"
board line 7
piece B black
piece W white
start BBB_WWW
goal WWW_BBB
move slide: B _ -> _ B along right
"""
FARMER = """\
puzzle "Farmer"
board places left, right
piece F farmer
piece L wolf
piece G goat
carrier boat at left

start at left: F
start at right: L G
goal at right: everyone

move cross: carry 1..2 in boat with farmer

safe in places:
    farmer is here or not (wolf is here and goat is here)
"""


def span(line: int, start: int, end: int) -> dict[str, Any]:
    return {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}


def started(encodings: list[str] | None = None) -> Client:
    client = Client()
    capabilities = {} if encodings is None else {"general": {"positionEncodings": encodings}}
    client.request("initialize", {"processId": None, "rootUri": None, "capabilities": capabilities})
    client.notify("initialized", {})
    return client


@pytest.fixture(scope="module")
def server() -> Iterator[Client]:
    client = started()
    yield client
    client.close()


def open_document(server: Client, name: str, text: str) -> tuple[str, list[dict[str, Any]]]:
    """Open a document and return its URI and the diagnostics published for it."""
    uri = f"file:///specs/{name}"
    document = {"uri": uri, "languageId": "puz", "version": 1, "text": text}
    server.notify("textDocument/didOpen", {"textDocument": document})
    return uri, server.notification("textDocument/publishDiagnostics", uri)["diagnostics"]


def at(server: Client, method: str, uri: str, line: int, character: int) -> Any:
    position = {"line": line, "character": character}
    return server.request(method, {"textDocument": {"uri": uri}, "position": position})


# ---- diagnostics


def test_a_mistake_is_marked_in_utf16_units_and_the_fix_clears_it(server: Client) -> None:
    uri, diagnostics = open_document(server, "bad.puz", BAD)
    assert diagnostics == [{"range": span(6, 40, 48), "message": SIDEWAYS, "severity": 1, "source": "puzint"}]
    change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": FIXED}]}
    server.notify("textDocument/didChange", change)
    published = server.notification("textDocument/publishDiagnostics", uri)
    assert published == {"uri": uri, "version": 2, "diagnostics": []}


def test_the_message_is_the_one_puzint_run_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "bad.puz"
    spec.write_text(BAD, encoding="utf-8")
    assert main(["run", str(spec)]) == 2
    printed = capsys.readouterr().err.splitlines()
    message, expected = SIDEWAYS.split("\n")
    assert printed[0] == f"{spec}:7:40: {message}" and printed[-1] == f"  {expected}"


def test_every_mistake_the_elaborator_finds_is_shown(server: Client) -> None:
    _, diagnostics = open_document(server, "two.puz", FIXED.replace("start B*n _ W*n", "start B*n _ W*n Q"))
    assert [(d["range"], d["message"]) for d in diagnostics] == [
        (span(8, 6, 17), "the start has 8 cells but the board is a line of 7 cells (with n=3)\nexpected 7 cells"),
        (span(8, 16, 17), "unknown piece 'Q'\nexpected a declared piece (B, W) or _ for empty"),
    ]


def test_the_compiler_is_heard_too(server: Client) -> None:
    _, diagnostics = open_document(server, "farmer.puz", FARMER)
    assert [(d["range"], d["message"]) for d in diagnostics] == [
        (
            span(14, 4, 57),
            "the start already breaks this safety rule (at right)\nexpected a start where every safety rule holds",
        )
    ]


def test_a_document_over_a_megabyte_is_not_parsed(server: Client) -> None:
    _, diagnostics = open_document(server, "huge.puz", "# a comment to pad the file\n" * 40_000)
    assert [(d["range"], d["message"]) for d in diagnostics] == [
        (span(0, 0, 0), "the spec is larger than 1,000,000 bytes\nexpected a spec file of text")
    ]


# ---- hover, definition, completion


def test_hover_shows_the_declaration(server: Client) -> None:
    uri, diagnostics = open_document(server, "frog.puz", FROG)
    assert diagnostics == []
    piece = at(server, "textDocument/hover", uri, 10, 6)  # the B of `start B*n _ W*n`
    assert piece == {
        "contents": {
            "kind": "markdown",
            "value": '```puz\npiece B black "black frog" drawn "●"\n```\npiece `B` (black): black frog — line 8',
        },
        "range": span(10, 6, 7),
    }
    param = at(server, "textDocument/hover", uri, 6, 13)  # the n of `board line 2*n + 1`
    assert param["contents"]["value"] == (
        '```puz\nparam n = 3 "frogs of each colour"\n```\nparameter `n`: frogs of each colour (default `3`) — line 4'
    )
    kind = at(server, "textDocument/hover", uri, 8, 10)  # `white`, the kind of W
    assert kind["contents"]["value"].endswith("kind of piece `white`, of piece `W` — line 9")


def test_hover_on_places_counters_and_carriers(server: Client) -> None:
    uri, _ = open_document(server, "farmer_hover.puz", FARMER)
    place = at(server, "textDocument/hover", uri, 7, 10)  # `left` in `start at left: F`
    assert place["contents"]["value"] == "```puz\nboard places left, right\n```\nplace `left` — line 2"
    carrier = at(server, "textDocument/hover", uri, 11, 27)  # `boat` in `carry 1..2 in boat`
    assert carrier["contents"]["value"].endswith("carrier `boat` — line 6")
    jugs = (Path(__file__).resolve().parents[2] / "specs" / "three_jugs.puz").read_text(encoding="utf-8")
    uri, _ = open_document(server, "three_jugs.puz", jugs)
    counter = at(server, "textDocument/hover", uri, 11, 10)  # `A` in `goal when A == a / 2`
    assert counter["contents"]["value"] == (
        '```puz\ncounter A = a in 0..a "the full jug"\n```\ncounter `A`: the full jug — line 9'
    )


def test_hover_and_definition_of_a_piece_in_a_word_of_cells(server: Client) -> None:
    uri, _ = open_document(server, "swap.puz", WORDS_OF_CELLS)
    hover = at(server, "textDocument/hover", uri, 4, 11)  # the second W of `start BBB_WWW`
    assert hover["range"] == span(4, 11, 12) and "piece W white" in hover["contents"]["value"]
    assert at(server, "textDocument/definition", uri, 5, 6) == [{"uri": uri, "range": span(3, 6, 7)}]


def test_definition_leads_to_every_declaration_of_the_name(server: Client) -> None:
    uri, _ = open_document(server, "frog_definition.puz", FROG)
    assert at(server, "textDocument/definition", uri, 10, 12) == [{"uri": uri, "range": span(8, 6, 7)}]
    slides = at(server, "textDocument/definition", uri, 13, 7)  # two moves are called slide
    assert [s["range"] for s in slides] == [span(13, 5, 10), span(15, 5, 10)]


def test_a_document_that_does_not_parse_still_has_its_names(server: Client) -> None:
    uri, _ = open_document(server, "half_written.puz", BAD)
    hover = at(server, "textDocument/hover", uri, 8, 12)  # the W of `start B*n _ W*n`, below the mistake
    assert hover["contents"]["value"].startswith('```puz\npiece W white "white 🐸 frog" drawn "○" sideways\n```')
    assert at(server, "textDocument/definition", uri, 11, 12) == [{"uri": uri, "range": span(5, 6, 7)}]
    uri, diagnostics = open_document(server, "being_typed.puz", "move hop: B _ ->\n" + FROG)  # a line begun
    assert diagnostics[0]["range"]["start"]["line"] == 0
    assert at(server, "textDocument/definition", uri, 11, 6) == [{"uri": uri, "range": span(8, 6, 7)}]


def test_completion_offers_what_fits_at_the_cursor(server: Client) -> None:
    uri, _ = open_document(server, "frog_completion.puz", FROG + "move hop: B _ -> _ B along \nrequire \n")
    items = at(server, "textDocument/completion", uri, 19, 0)["items"]  # a statement's start
    labels = {item["label"]: item for item in items}
    assert {"piece", "move", "goal", "safe"} <= labels.keys() and not {"every", "along", "n", "B"} & labels.keys()
    assert labels["piece"]["kind"] == 14  # Keyword
    directions = at(server, "textDocument/completion", uri, 17, 27)["items"]  # after `along`
    assert [item["label"] for item in directions] == ["right", "left", "any"]
    cells = at(server, "textDocument/completion", uri, 17, 10)["items"]  # a pattern
    assert [item["label"] for item in cells][:3] == ["B", "W", "_"] and cells[0]["detail"] == "piece B"
    values = {item["label"]: item for item in at(server, "textDocument/completion", uri, 18, 8)["items"]}
    assert {"n", "B", "black", "every", "not"} <= values.keys() and not {"slide", "piece"} & values.keys()
    assert values["n"]["detail"] == "parameter, line 4"
    assert at(server, "textDocument/completion", uri, 0, 12)["items"] == []  # in a text


def test_hover_on_a_word_of_the_language(server: Client) -> None:
    uri, _ = open_document(server, "frog_words.puz", FROG)
    along = at(server, "textDocument/hover", uri, 13, 25)  # `along` in the first move
    assert along["range"] == span(13, 23, 28)
    assert along["contents"]["value"].startswith("**along** — `along DIRECTIONS`: the directions a move is made in")
    assert at(server, "textDocument/hover", uri, 1, 10) is None  # `about`'s text, not the word
    # a declared name is hovered as a name, even where a word is spelt the same way
    assert at(server, "textDocument/hover", uri, 3, 6)["contents"]["value"].startswith("```puz\nparam n = 3")


# Misspellings that puzint answers with "did you mean": (the line written, the word misspelt, the fix).
MISSPELT = [
    ("move slide: B _ -> _ B along rihgt", "rihgt", "right"),
    ("search shortst", "shortst", "shortest"),
    ("search shortest by bfss", "bfss", "bfs"),
    ("show ladde", "ladde", "ladder"),
    ("heuristic misplace()", "misplace", "misplaced"),
    ("safe: count(blak) >= 0", "blak", "black"),
    ("require nn < 9", None, None),  # too far from `n` for a suggestion: no fix
]


@pytest.mark.parametrize(("line", "word", "fix"), MISSPELT)
def test_a_did_you_mean_is_a_quick_fix(server: Client, line: str, word: str | None, fix: str | None) -> None:
    uri, diagnostics = open_document(server, f"misspelt_{abs(hash(line))}.puz", FROG + line + "\n")
    assert len(diagnostics) == 1
    (diagnostic,) = diagnostics
    params = {"textDocument": {"uri": uri}, "range": diagnostic["range"], "context": {"diagnostics": diagnostics}}
    actions = server.request("textDocument/codeAction", params)
    if fix is None:
        assert "did you mean" not in diagnostic["message"] and "data" not in diagnostic and actions == []
        return
    assert f"(did you mean '{fix}'?)" in diagnostic["message"]
    start = line.index(word)
    assert diagnostic["data"] == {"replacement": fix, "range": span(17, start, start + len(word))}
    assert actions == [
        {
            "title": f"Change to '{fix}'",
            "kind": "quickfix",
            "diagnostics": [diagnostic],
            "isPreferred": True,
            "edit": {"changes": {uri: [{"range": span(17, start, start + len(word)), "newText": fix}]}},
        }
    ]


def test_a_quick_fix_for_a_place_misspelt_on_another_spec(server: Client) -> None:
    uri, diagnostics = open_document(server, "farmer_misspelt.puz", FARMER.replace("goal at right", "goal at rigt"))
    (diagnostic,) = [d for d in diagnostics if "did you mean" in d["message"]]
    params = {"textDocument": {"uri": uri}, "range": diagnostic["range"], "context": {"diagnostics": diagnostics}}
    (action,) = server.request("textDocument/codeAction", params)
    assert action["edit"]["changes"][uri] == [{"range": span(9, 8, 12), "newText": "right"}]


def test_nothing_is_found_in_comments_text_or_past_the_end(server: Client) -> None:
    uri, _ = open_document(server, "commented.puz", FROG + '# B and n\nrequire n < 9 "B"\n')
    assert at(server, "textDocument/hover", uri, 17, 2) is None
    assert at(server, "textDocument/hover", uri, 18, 15) is None
    assert at(server, "textDocument/hover", uri, 999, 3) is None
    assert at(server, "textDocument/definition", uri, 18, 8) == [{"uri": uri, "range": span(3, 6, 7)}]


# ---- the protocol


def test_a_client_that_counts_in_utf8_gets_utf8_positions_and_exit_ends_the_server() -> None:
    client = started(["utf-8"])
    try:
        _, diagnostics = open_document(client, "bad.puz", BAD)
        assert diagnostics[0]["range"] == span(6, 44, 52)  # 🐸 is 4 bytes, ○ 3
        assert client.request("shutdown", None) is None
        client.notify("exit", None)
        assert client.process.wait(timeout=TIMEOUT) == 0
    finally:
        client.close()


def test_a_failing_handler_is_logged_and_the_server_goes_on() -> None:
    from puzint.lsp.server import PuzServer

    server = PuzServer()
    logged: list[str] = []
    server.window_log_message = lambda params: logged.append(params.message)

    async def failing(params: object) -> str:
        raise ValueError("boom\x1b[2J")

    assert asyncio.run(server.guarded("hover", failing)(None)) is None
    server.report_server_error(RuntimeError("unreadable message"), None)
    assert logged == [
        "puzint lsp: internal error in hover: ValueError: boom\\x1b[2J",
        "puzint lsp: RuntimeError: unreadable message",
    ]


def test_positions_count_the_units_of_the_agreed_encoding() -> None:
    from puzint.errors import Pos
    from puzint.lsp.positions import Positions

    text = '\ufeffpiece F "🐸" drawn "○" x\r\nstart F\rgoal F\n'
    expected = {"utf-16": (24, 25), "utf-8": (30, 31), "utf-32": (23, 24)}  # the mark (1), 🐸 (2, 4, 1), ○ (1, 3, 1)
    for encoding, (start, end) in expected.items():
        positions = Positions(text, encoding)
        mark = positions.range_of(Pos(1, 23))  # the x: puzint's column 23, the byte-order mark read past
        assert (mark.start.line, mark.start.character, mark.end.character) == (0, start, end)
        assert positions.column_at(mark.start) == 23  # the index in the line, the mark included
    positions = Positions(text)
    assert positions.range_of(Pos(3, 6, 40)).end.character == 6  # cut at the end of its line
    assert positions.range_of(Pos(9, 1)).start.line == 3  # past the end: the end of the text
    assert positions.range_of(Pos(0, 0)).start.character == 0  # no position: the start


@pytest.mark.parametrize(
    ("text", "word", "fix"),
    [
        (FROG + "shape pair = (0, 0), (0, 1)\nmove swap: B W -> W B in piar\n", "piar", "pair"),
        (FARMER.replace("carry 1..2 in boat", "carry 1..2 in baot"), "baot", "boat"),
        ("board grid 2 x 2\npiece Q queen\nfill r1c1, r1c3 with Q or empty\nrule: true\n", "r1c3", "r1c2"),
    ],
)
def test_the_fix_replaces_the_name_misspelt(text: str, word: str, fix: str) -> None:
    from puzint.lsp.analysis import analyse
    from puzint.lsp.positions import Positions
    from puzint.lsp.server import _diagnostic

    positions = Positions(text)
    (problem,) = [p for p in analyse(text, "spec.puz").problems if "did you mean" in p.message]
    data = _diagnostic(problem, positions).data
    start, end = data["range"]["start"], data["range"]["end"]
    assert data["replacement"] == fix
    assert positions.line(start["line"])[start["character"] : end["character"]] == word
