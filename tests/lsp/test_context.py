"""Completion by context (lsp/context.py, lsp/answers.py): what the grammar accepts at the
cursor, and the names of the spec that fit there: directions after `along`, pieces in a
pattern, parameters in an expression, the words that start a statement at its start. And a
paragraph for every word of the language (lsp/words.py), for hover."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.language.parser import NOT_RESERVED, grammar_parser, keywords
from puzint.lsp.analysis import analyse
from puzint.lsp.answers import completions
from puzint.lsp.context import context_at
from puzint.lsp.positions import Positions
from puzint.lsp.words import WORDS

SPECS = Path(__file__).resolve().parents[2] / "specs"
FROG = (SPECS / "frog.puz").read_text(encoding="utf-8")
FARMER = (SPECS / "farmer.puz").read_text(encoding="utf-8")
# Every word that starts a statement, as the grammar says (`start: _NL? stmt*`).
STATEMENT_WORDS = {
    "about", "board", "boxes", "carrier", "counter", "cursor", "direction", "fill", "goal", "group", "heuristic",
    "if", "legend", "level", "link", "maximize", "minimize", "move", "neighborhood", "neighbourhood", "param",
    "piece", "pieces", "place", "places", "puzzle", "regions", "require", "route", "rule", "safe", "search",
    "shape", "show", "stack", "stacks", "start", "symmetry", "tile",
}  # fmt: skip


def offered(spec: str, typed: str) -> list[str]:
    """The labels completion offers at the end of `typed`, written after the spec."""
    text = spec + typed
    analysis = analyse(text, "spec.puz")
    positions = Positions(text)
    index = len(positions.lines) - 1
    context = context_at(positions, index, len(positions.line(index)))
    return [item.label for item in completions(analysis, context).items]


def test_after_along_the_board_s_directions_and_nothing_else() -> None:
    assert offered(FROG, "move hop: B _ -> _ B along ") == ["right", "left", "any"]
    assert offered(FROG, "move hop: B _ -> _ B along ri") == ["right", "left", "any"]  # the client filters
    grid = "board grid 3 x 3\ndirection hop = (0, 2)\npiece K knight\nstart K\nmove go: step ?k along "
    assert offered("", grid)[:3] == ["hop", "up", "down"] and "knight" in offered("", grid)
    assert "piece" not in offered("", grid) and "K" not in offered("", grid)


def test_more_directions_after_a_comma_and_the_actions_that_may_follow() -> None:
    labels = offered(FROG, "move hop: B _ -> _ B along right, ")
    assert labels[:3] == ["right", "left", "any"] and {"add", "set", "take"} <= set(labels)
    assert "n" not in labels and "piece" not in labels


def test_in_a_pattern_the_pieces_and_the_empty_cell() -> None:
    assert offered(FROG, "move hop: B ") == ["B", "W", "_"]
    assert offered(FROG, "move hop: B W _ -> ") == ["B", "W", "_"]
    assert offered(FROG, "goal BW") == ["BWB", "BWW", "BW_", "at", "from", "when"]  # the word typed, one more cell


def test_a_count_or_an_expression_offers_the_parameters() -> None:
    assert offered(FROG, "start B*") == ["n"]
    labels = offered(FROG, "require ")
    assert "n" in labels and {"not", "every", "count", "true"} <= set(labels)
    assert "slide" not in labels and "piece" not in labels  # a move is no value; no statement starts here


def test_a_statement_starts_with_a_word_of_the_language() -> None:
    assert set(offered(FROG, "")) == STATEMENT_WORDS
    assert set(offered(FROG, "mo")) == STATEMENT_WORDS
    inside = offered(FROG, "if n > 2:\n    piece X extra\n    ")
    assert set(inside) == STATEMENT_WORDS  # inside the block: no `else` yet
    assert "else" in offered(FROG, "if n > 2:\n    piece X extra\n")


def test_words_the_language_fixes_after_search_and_show() -> None:
    assert offered(FROG, "search ") == ["shortest", "cheapest", "count", "reach", "all", "any"]
    assert offered(FROG, "search shortest by ") == ["bfs", "bidirectional", "astar", "idastar"]
    assert offered(FROG, "show ") == ["board", "ladder", "circle", "banks"]


def test_after_symmetry_the_words_a_symmetry_starts_with_and_what_each_maps() -> None:
    words = ["mirror", "flip", "rotate", "reversal", "swap", "complement", "cycle"]
    assert offered(FROG, "symmetry ") == words
    assert offered(FROG, "symmetry mirror, ") == words
    assert offered(FROG, "symmetry mirror + ") == words
    assert offered(FROG, "symmetry mirror + swap ") == ["B", "W"]
    assert offered(FROG, "symmetry mirror + swap B ") == ["B", "W"]
    assert offered(FARMER, "symmetry swap ") == ["left", "right", "F", "L", "G", "C"]
    assert offered("board graph a, b, c\n", "symmetry cycle a ") == ["a", "b", "c"]
    assert offered(FROG, "symmetry mirror ") == [] and offered(FROG, "symmetry swap B W ") == []


def test_places_kinds_and_carriers_where_they_fit() -> None:
    assert offered(FARMER, "goal at ") == ["left", "right", "boat"]
    assert offered(FARMER, "move row: carry 1..2 in ") == ["boat"]
    assert offered(FARMER, "route left <-> ") == ["left", "right"]
    assert offered("board graph a, b, c\n", "link a - ") == ["a", "b", "c"]
    labels = offered(FARMER, "safe: every ")
    assert set(labels) == {"farmer", "F", "wolf", "L", "goat", "G", "cabbage", "C"}


def test_a_new_name_is_not_completed() -> None:
    assert offered(FROG, "param ") == []
    assert offered(FARMER, "places island, ") == [] and offered(FROG, "board graph a, ") == []
    assert offered(FROG, "piece Q ") == ["block", "drawn", "per", "shape", "with"]  # its kind: a new name too


def test_a_statement_with_a_mistake_before_the_cursor_gets_everything() -> None:
    labels = offered(FROG, "move hop: B -> -> ")
    assert {"n", "B", "slide", "piece", "along"} <= set(labels)


def test_nothing_in_a_comment_or_a_text() -> None:
    text = FROG + 'about "a frog '
    positions = Positions(text)
    index = len(positions.lines) - 1
    from puzint.lsp.context import in_comment_or_text

    assert in_comment_or_text(positions.line(index), len(positions.line(index)))
    assert in_comment_or_text("start B # a", 11) and not in_comment_or_text('about "#" x', 10)


def test_every_word_of_the_grammar_has_a_paragraph_and_nothing_else_has() -> None:
    parser = grammar_parser()
    words = {
        term.pattern.value for term in parser.terminals if term.pattern.type == "str" and term.pattern.value.isalpha()
    }
    assert words == keywords() | NOT_RESERVED
    assert set(WORDS) == words
    assert all(doc.strip() and "\n" not in doc for doc in WORDS.values())


@pytest.mark.parametrize("word", ["move", "along", "safe", "search", "x"])
def test_a_word_s_paragraph_shows_how_it_is_written(word: str) -> None:
    assert f"`{word}" in WORDS[word] or f" {word} " in WORDS[word]


def test_in_a_block_the_lines_that_open_it_say_what_fits() -> None:
    picture = "start:\n" + "    B W _\n" * 200 + "    B "
    assert offered(FROG, picture) == ["B", "W", "_"]
    nested = "if n > 2:\n    piece X extra\n    safe in places:\n        farmer is here or "
    labels = offered(FARMER, nested)
    assert {"farmer", "wolf", "not", "every"} <= set(labels) and "piece" not in labels
