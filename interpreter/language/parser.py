"""Text -> syntax model: the lark LALR parser, and lark's errors turned into diagnostics."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.exceptions import UnexpectedEOF, VisitError

from ..errors import Diagnostic, Pos, SpecError, source_lines, suggest
from ..sources import line_ends
from .builder import SyntaxBuilder
from .indenter import PuzIndenter, glued
from .levels import expand_levels, quote_levels, spec_folder
from .picture_files import expand_pictures
from .syntax import Spec
from .tables import load_or_build

# What a user would type, for each terminal lark may say it expected.
TERMINAL_WORDS = {
    "NAME": "a name",
    "CELLS": "cells (piece symbols, _ for empty)",
    "VAR": "a variable such as ?x",
    "WILD": "? (any cell)",
    "NUMBER": "a number",
    "STRING": 'a "quoted text"',
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the indented block",
    "$END": "the end of the file",
    "COMP_OP": "a comparison (== != < <= > >=)",
    "NOCELLS": ". (a square with no cell)",
}


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """Build the parser once, from the tables shipped beside the grammar (plain JSON, never a
    pickle: see tables.py for why lark's own cache is not used)."""
    return load_or_build(PuzIndenter())


def parse(source: str, filename: str = "<spec>", folder: Path | None = None) -> Spec:
    """Parse a spec's text into the syntax model, or raise SpecError with positions. A level
    file (`level N from "FILE"`) is read in `folder`, by default the folder of the file
    `filename` names (none if it names no file)."""
    parser = grammar_parser()
    # a byte-order mark, as some editors save UTF-8; line ends of Windows and old Macs
    source = line_ends(source.removeprefix("\ufeff"))
    text = source if source.endswith("\n") else source + "\n"
    text = quote_levels(text)  # a level's rows, quoted: line and column of every character kept
    try:
        tree = parser.parse(text)
        _refuse_deep_nesting(tree)
        where = folder or spec_folder(filename)
        statements = expand_levels(SyntaxBuilder().transform(tree), where)
        statements = expand_pictures(statements, where, parser, SyntaxBuilder().transform, _first_mistake)
    except UnexpectedInput as exc:
        first = _reserved_clash(exc, parser, text) or _diagnose(exc, parser, text)
        raise SpecError([first, *_unclosed(exc, text)], source, filename) from None
    except RecursionError:
        raise SpecError([Diagnostic(Pos(0, 0), "the spec nests too deeply to read")], source, filename) from None
    except SpecError as exc:
        raise exc.with_source(source, filename) from None
    except VisitError as exc:
        if isinstance(exc.orig_exc, SpecError):
            raise exc.orig_exc.with_source(source, filename) from None
        raise
    return Spec(filename, source, tuple(statements))


def _first_mistake(exc: UnexpectedInput, parser: Lark, text: str) -> Diagnostic:
    """The mistake a parse failed on, said where it was made: a bracket never closed, where
    it was opened, rather than where the parser noticed."""
    return next(iter(_unclosed(exc, text)), None) or _diagnose(exc, parser, text)


MAX_NESTING = 200

# Words of the grammar that are also fine names: `x` only ever follows a size (`grid 3 x 4`),
# where a name cannot stand, so a counter or parameter may be called x.
NOT_RESERVED = frozenset({"x"})
MOST_TRIED = 6  # words of the language on the line put aside one at a time: each costs a parse
WORD = re.compile(r'"[^"\n]*"|#.*|[A-Za-z][A-Za-z0-9_]*')


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """Words of the grammar, which may not be used as names."""
    words = set()
    for term in grammar_parser().terminals:
        pattern = term.pattern
        if pattern.type == "str" and pattern.value.isalpha():
            words.add(pattern.value)
    return frozenset(words - NOT_RESERVED)


def _reserved_clash(exc: UnexpectedInput, parser: Lark, text: str) -> Diagnostic | None:
    """A word of the language written where a name was meant (`piece B block "a block"`:
    a kind called block) makes the parser stumble later on the line, on something that is
    not the mistake. Where putting a plain name in place of one such word (not the first of
    the line, which says what the statement is) lets the parser past the line, that word is
    the mistake, and the diagnostic says so at the word."""
    line_no = getattr(exc, "line", None)
    lines = text.split("\n")
    if not isinstance(line_no, int) or not 1 <= line_no <= len(lines):
        return None
    line = lines[line_no - 1]
    reserved = keywords()
    words = [m for m in WORD.finditer(line) if m.group()[0].isalpha()]
    for match in [m for m in words[1:] if m.group() in reserved][:MOST_TRIED]:
        word = match.group()
        named = line[: match.start()] + "Q" * len(word) + line[match.end() :]
        try:
            parser.parse("\n".join([*lines[: line_no - 1], named, *lines[line_no:]]))
        except UnexpectedInput as later:
            if getattr(later, "line", line_no) <= line_no:
                continue
        except SpecError:  # the indentation's: nothing said of the word
            continue
        return Diagnostic(
            Pos(line_no, match.start() + 1, len(word)),
            f"'{word}' is a word of the language and cannot be a name here",
            "another name (docs/language.md lists the words of the language)",
        )
    return None


def _refuse_deep_nesting(tree: Tree) -> None:
    """Every later stage walks expressions recursively, so a chain of hundreds of operators or
    brackets would end in Python's recursion limit, far from the text that caused it. Measure
    the depth here, without recursion, and refuse at the first node past the bound."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            line = getattr(meta, "line", 1) if not meta.empty else 1
            column = getattr(meta, "column", 1) if not meta.empty else 1
            raise SpecError(
                [
                    Diagnostic(
                        Pos(line, column),
                        f"this expression nests more than {MAX_NESTING} levels deep "
                        "(operators in one chain, brackets or signs inside one another)",
                        "a shorter expression: name parts of it with param",
                    )
                ]
            )
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _describe_terminal(name: str, parser: Lark) -> str | None:
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return None
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return None


def _expected_words(names: set[str], parser: Lark) -> str | None:
    words = sorted({w for w in (_describe_terminal(n, parser) for n in names) if w})
    if not words:
        return None
    if len(words) == 1:
        return words[0]
    return "one of: " + ", ".join(words)


def _diagnose(exc: UnexpectedInput, parser: Lark, text: str) -> Diagnostic:
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        expected = _expected_words(_acceptable(exc, set(exc.expected)), parser)
        if token.type == "$END":
            lines = source_lines(text)
            return Diagnostic(Pos(len(lines), len(lines[-1]) + 1 if lines else 1), "the spec ends too early", expected)
        if token.type in ("_NL",):
            line = token.line or 1
            col = token.column or 1
            return Diagnostic(Pos(line, col), "this line ends too early", expected)
        if token.type == "_INDENT":
            return Diagnostic(Pos(token.end_line or 1, 1), "unexpected indentation", expected)
        if token.type == "_DEDENT":
            return Diagnostic(Pos(token.line or 1, 1), "an indented block was expected here", expected)
        glued = _glued_keyword(token, text) or _misspelt_action(token, text)
        if glued is not None:
            return glued
        if str(token).isdigit() and re.fullmatch(r"[ \t]*piece[ \t]+", _line_before(token, text)):
            return Diagnostic(
                Pos(token.line or 1, token.column or 1, len(str(token))),
                f"a piece declared alone is named by a letter or a word, not the number {token}",
                f"a name (numbered pieces are declared together: pieces {token}..N)",
            )
        described = (_describe_terminal(n, parser) or "" for n in _acceptable(exc, set(exc.expected)))
        keywords = [w[1:-1] for w in described if w[:1] == "'" and w[1:-1].isidentifier()]
        hint = suggest(str(token), keywords) if str(token).isidentifier() else ""
        return Diagnostic(
            Pos(token.line or 1, token.column or 1, max(1, len(str(token)))),
            f"unexpected {_token_words(token)}{hint}",
            expected,
        )
    if isinstance(exc, UnexpectedCharacters):
        at = exc.pos_in_stream or 0
        char = text[at] if at < len(text) else ""
        expected = _expected_words(_acceptable(exc, set(exc.allowed or ())), parser)
        if char == '"':
            return Diagnostic(
                Pos(exc.line, exc.column), "this text has no closing quote", 'a closing " on the same line'
            )
        return Diagnostic(Pos(exc.line, exc.column), f"unexpected character {char!r}", expected)
    if isinstance(exc, UnexpectedEOF):
        lines = source_lines(text)
        return Diagnostic(Pos(len(lines), 1), "the spec ends too early", _expected_words(set(exc.expected), parser))
    return Diagnostic(Pos(getattr(exc, "line", 1), getattr(exc, "column", 1)), "syntax error")


def _glued_keyword(token: Token, text: str) -> Diagnostic | None:
    """The error of a word the lexer cut after a keyword (`rulez:`: the keyword `rule`, then
    `z`, which the parser refuses), said of the whole word; None where `token` does not
    continue a keyword (the indentation post-lexer refuses the cuts the parser accepts)."""
    at = token.start_pos
    rest = str(token)
    if at is None or not rest[:1].isalpha():
        return None
    start = at
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    word = text[start:at]
    if not word.isidentifier():
        return None
    return glued(token.line or 1, (token.column or 1) - len(word), word, rest)


# the words a move's form or action begins with (grammar/puz.lark: move_form, action)
MOVE_WORDS = (
    "take",
    "put",
    "advance",
    "set",
    "add",
    "let",
    "toggle",
    "cycle",
    "reverse",
    "rotate",
    "slide",
    "step",
    "carry",
)


def _line_before(token: Token, text: str) -> str:
    """The text of `token`'s line before it."""
    at = token.start_pos or 0
    return text[text.rfind("\n", 0, at) + 1 : at]


def _misspelt_action(token: Token, text: str) -> Diagnostic | None:
    """A move's action misspelt (`tak ?d from ?p`) reads as the start of a pattern, and the
    parser stumbles on the word after it (`from`, where `->` was expected): said at the
    misspelt word, with the action it is close to. None where the failing line is no move, or
    the word before `token` that begins a part of the move is close to no action."""
    before = _line_before(token, text)
    found = None
    for match in re.finditer(r"(?:[:,])[ \t]*([A-Za-z_]\w*)", before):
        found = match
    if found is None or not re.match(r"[ \t]*move[ \t]", before):
        return None
    word = found.group(1)
    hint = suggest(word, MOVE_WORDS) if word not in MOVE_WORDS else ""
    if not hint:
        return None
    column = found.start(1) + 1
    return Diagnostic(
        Pos(token.line or 1, column, len(word)),
        f"'{word}' is not a move's action, and no pattern follows it{hint}",
        "an action (" + ", ".join(MOVE_WORDS) + ") or a pattern (A B -> B A)",
    )


CLOSING = {"(": ")", "[": "]"}


def _unclosed(exc: UnexpectedInput, text: str) -> list[Diagnostic]:
    """An error after a bracket left open on an earlier line is really the bracket's: inside
    brackets a line break does not end the statement, so the parser only stumbles on the next
    one. Point at the bracket too."""
    token = getattr(exc, "token", None)
    at = getattr(token, "start_pos", None) if token is not None else None
    if at is None:
        at = getattr(exc, "pos_in_stream", None)
    if at is None or isinstance(exc, UnexpectedEOF) or (token is not None and token.type == "$END"):
        at = len(text)
    error_line = text.count("\n", 0, at) + 1
    if at == len(text) or (token is not None and token.type in ("_NEWLINE", "_DEDENT")):
        error_line += 1  # the end of the file or of the line: a bracket on that line counts too
    opened: list[tuple[int, int, str]] = []  # (line, column, bracket)
    line, column, in_text, in_comment = 1, 0, False, False
    for ch in text[:at]:
        column += 1
        if ch == "\n":
            line, column, in_text, in_comment = line + 1, 0, False, False
        elif in_comment:
            continue
        elif ch == '"':
            in_text = not in_text
        elif in_text:
            continue
        elif ch == "#":
            in_comment = True
        elif ch in CLOSING:
            opened.append((line, column, ch))
        elif ch in CLOSING.values() and opened and CLOSING[opened[-1][2]] == ch:
            opened.pop()
    return [
        Diagnostic(Pos(line, column), f"this '{bracket}' is never closed", f"a closing '{CLOSING[bracket]}'")
        for line, column, bracket in opened
        if line < error_line
    ]


def _acceptable(exc: UnexpectedInput, fallback: set[str]) -> set[str]:
    """The terminals the parser could really take here (lark's own list can include
    terminals the indentation post-lexer always lets through)."""
    interactive = getattr(exc, "interactive_parser", None)
    if interactive is None:
        return fallback
    try:
        return set(interactive.accepts())
    except Exception:  # accepts() replays the parser; fall back to lark's list if it cannot
        return fallback


def _token_words(token: Token) -> str:
    if token.type == "STRING":
        return f"text {token}"
    if token.type == "NUMBER":
        return f"number {token}"
    return f"'{token}'"
