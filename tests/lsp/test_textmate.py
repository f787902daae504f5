"""The TextMate grammar (editors/textmate/puz.tmLanguage.json) highlights every word of the
language, and only those, as a keyword; comments, text and numbers as such; and the VS Code
extension ships the same grammar for the language it declares."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from puzint.language.parser import keywords

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR_FILE = ROOT / "editors" / "textmate" / "puz.tmLanguage.json"
GRAMMAR = json.loads(GRAMMAR_FILE.read_text(encoding="utf-8"))
REPOSITORY = GRAMMAR["repository"]
KEYWORDS = [re.compile(p["match"]) for p in REPOSITORY["keywords"]["patterns"]]


def patterns(rule: dict[str, Any]) -> list[re.Pattern[str]]:
    return [re.compile(p["match"]) for p in rule.get("patterns", [rule])]


def highlighted(rule: dict[str, Any], line: str) -> list[str]:
    """What the rule's patterns match in a line, left to right."""
    found = [(m.start(), m.group()) for pattern in patterns(rule) for m in pattern.finditer(line)]
    return [text for _, text in sorted(found)]


def test_the_grammar_is_the_one_for_puz_files() -> None:
    assert GRAMMAR["scopeName"] == "source.puz" and GRAMMAR["fileTypes"] == ["puz"]
    included = {p["include"].lstrip("#") for p in GRAMMAR["patterns"]}
    assert included == REPOSITORY.keys()


@pytest.mark.parametrize("word", sorted(keywords()))
def test_every_word_of_the_language_is_a_keyword(word: str) -> None:
    matching = [pattern.pattern for pattern in KEYWORDS if pattern.fullmatch(word)]
    assert len(matching) == 1, f"{word!r} is matched by {len(matching)} keyword patterns"


@pytest.mark.parametrize("name", ["frog", "x", "n", "pieces_left", "moves", "into", "U'", "start'", "black_frog"])
def test_a_name_is_not_a_keyword(name: str) -> None:
    assert not any(pattern.fullmatch(name) for pattern in KEYWORDS)


def test_a_line_is_highlighted_word_by_word() -> None:
    line = 'move jump: B W _ -> _ W B along right if count(piece p at ?x) > 2 # hop "over" it'
    assert highlighted(REPOSITORY["keywords"], line) == ["move", "along", "if", "count", "piece", "at"]
    assert highlighted(REPOSITORY["comment"], line) == ['# hop "over" it']
    assert highlighted(REPOSITORY["variable"], line) == ["?x"]
    assert highlighted(REPOSITORY["number"], "board grid 3 x 12 where r1c1 != line6") == ["3", "12"]
    assert highlighted(REPOSITORY["string"], 'piece B "a # not a comment" drawn "●"') == [
        '"a # not a comment"',
        '"●"',
    ]


def test_declarations_name_what_they_declare() -> None:
    rules = patterns(REPOSITORY["declaration"])

    def declared(line: str) -> tuple[str | None, ...]:
        match = next(m for rule in rules if (m := rule.match(line)))
        return match.groups()

    assert declared('piece B black "black frog" drawn "●"') == ("piece", "B", "black")
    assert declared("piece H husband per couple") == ("piece", "H", "husband")
    assert declared('piece M drawn "@"') == ("piece", "M", None)
    assert declared('    param n = 3 "frogs"') == ("param", "n")
    assert declared("move jump:  B W _ -> _ W B along right") == ("move", "jump")
    assert declared("carrier boat at left") == ("carrier", "boat", "at", "left")


def test_vs_code_ships_the_same_grammar_for_the_language_it_declares() -> None:
    extension = ROOT / "editors" / "vscode"
    manifest = json.loads((extension / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    (grammar,) = manifest["contributes"]["grammars"]
    assert language["id"] == grammar["language"] == "puz" and language["extensions"] == [".puz"]
    assert grammar["scopeName"] == "source.puz"
    assert (extension / grammar["path"]).read_text(encoding="utf-8") == GRAMMAR_FILE.read_text(encoding="utf-8")
    configuration = json.loads((extension / language["configuration"]).read_text(encoding="utf-8"))
    assert configuration["comments"] == {"lineComment": "#"}
    assert manifest["contributes"]["configuration"]["properties"]["puz.server.command"]["default"] == ["puzint", "lsp"]
