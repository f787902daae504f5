"""What may be written at the cursor, asked of the grammar rather than guessed: the text from
the start of the statement the cursor is in, up to the word being typed, is fed to lark's
interactive parser, whose `accepts()` are the terminals that may come next (a keyword, a name,
cells of pieces, a number ...). The words of the line so far say which names fit a NAME
(after `along`, a direction). Why from the statement's start and not the file's: a mistake
on an earlier line would stop the parser there, and a long file would be read again at every
keystroke; a statement starts on a line that is not indented, so the blocks it opens (an
`if`, a `safe:` block, a picture) are read from their first line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark.exceptions import LarkError

from ..errors import SpecError
from ..language.levels import quote_levels
from ..language.parser import grammar_parser
from .positions import Positions

TYPED = re.compile(r"[A-Za-z0-9_]*'*$")  # the part of a name, or of a word of cells, before the cursor
MOST_LINES_BACK = 2000  # a statement longer than this is not looked for: the context is unknown
LINE_BREAKS = frozenset({"_NL", "_INDENT", "_DEDENT"})


@dataclass(frozen=True)
class Context:
    """What may come at the cursor: the terminals the parser accepts there (`NAME`, `CELLS`,
    `NUMBER`, a keyword's terminal ...), the keywords among them as written, the words of the
    line before the word being typed, and that word (`typed`, from column `start`)."""

    accepts: frozenset[str]
    keywords: frozenset[str]
    words: tuple[str, ...]
    typed: str
    start: int

    @property
    def first(self) -> str | None:
        """The line's first word: which statement it is (`move`, `piece` ...)."""
        return self.words[0] if self.words else None

    @property
    def previous(self) -> str | None:
        return self.words[-1] if self.words else None


def context_at(positions: Positions, index: int, column: int) -> Context | None:
    """The context at a 0-based line and Python column; None where it cannot be told (the
    statement so far does not parse: it has a mistake before the cursor)."""
    line = positions.line(index)[:column]
    typed = TYPED.search(line)
    start = typed.start() if typed is not None else column
    first = _statement_start(positions, index, line)
    if first is None:
        return None
    openers = _openers(positions, index, line)
    fed = None if openers is None else _fed("\n".join([*(positions.line(i) for i in openers), line[:start]]))
    if fed is None:
        fed = _fed("\n".join([*(positions.line(i) for i in range(first, index)), line[:start]]))
    if fed is None and first < index:  # the statement above has a mistake: the line may start one
        fed = _fed(line[:start].lstrip())
    if fed is None:
        return None
    accepts, words = fed
    return Context(frozenset(accepts), _keywords(accepts), words, line[start:], start)


def in_comment_or_text(line: str, column: int) -> bool:
    """Whether a column lies in a comment or in quoted text (`"#"` is text, not a comment)."""
    quoted = False
    for char in line[:column]:
        if char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return True
    return quoted


def _statement_start(positions: Positions, index: int, before: str) -> int | None:
    """The line the cursor's statement starts on: the nearest line at or above the cursor that
    is not indented, not blank and not a comment."""
    for back in range(index, max(-1, index - MOST_LINES_BACK), -1):
        text = before if back == index else positions.line(back)
        if text.strip() and not text[0].isspace() and not text.startswith("#"):
            return back
    return 0 if index < MOST_LINES_BACK else None


def _openers(positions: Positions, index: int, before: str) -> list[int] | None:
    """For a line in a block, the lines that open the blocks it is in, outermost first (each
    the nearest line above less indented than the one below it): a picture's earlier rows, or
    a block's earlier statements, say nothing of what may come, and a picture of a thousand
    rows would be read again at every keystroke. None for a line that is not indented, or
    where no line above opens its block."""
    indent = _indentation(before)
    chain: list[int] = []
    for back in range(index - 1, max(-1, index - MOST_LINES_BACK), -1):
        if indent == 0:
            break
        text = positions.line(back)
        if text.strip() and not text.lstrip().startswith("#") and _indentation(text) < indent:
            chain.append(back)
            indent = _indentation(text)
    return chain[::-1] if chain and indent == 0 else None


def _indentation(line: str) -> int:
    """How far a line is indented, a tab counting 8 as the indenter counts it (the whole
    line, if it is blank: the cursor is where its next word will start)."""
    expanded = line.expandtabs(8)
    return len(expanded) - len(expanded.lstrip())


def _fed(text: str) -> tuple[set[str], tuple[str, ...]] | None:
    """The terminals the parser accepts after `text`, and the words of its last line."""
    parser = grammar_parser()
    try:
        interactive = parser.parse_interactive(quote_levels(text.removeprefix("\ufeff")))
        words: list[str] = []
        indent: str | None = None  # the indentation of the line break just read, if one was
        for token in interactive.lexer_thread.lex(interactive.parser_state):
            if token.type == "_DEDENT" and (indent is None or (indent and not token.value)):
                break  # a block closed because the text ends, not because a line is dedented
            interactive.feed_token(token)
            if token.type == "_NL":
                indent = token.rsplit("\n", 1)[-1]
            elif token.type not in LINE_BREAKS:
                indent = None
            words = [] if token.type in LINE_BREAKS else [*words, str(token)]
        return set(interactive.accepts()), tuple(words)
    except (LarkError, SpecError):
        return None


def _keywords(accepts: set[str]) -> frozenset[str]:
    """The words of the language among the terminals accepted (`PIECE` -> `piece`)."""
    parser = grammar_parser()
    found = set()
    for name in accepts:
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:
            continue
        if pattern.type == "str" and pattern.value.isalpha():
            found.add(pattern.value)
    return frozenset(found)
