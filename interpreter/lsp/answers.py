"""Hover, go-to-definition and completion, from a document's analysis: the name under the
cursor is looked up among the names the spec declares (declarations.py).

A word of cells (`BBB_WWW`, `B*n`) is made of piece symbols: on such a word, the piece under
the cursor is the one meant.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lsprotocol import types

from ..language import syntax as s
from ..language.parser import keywords
from ..language.rules import SHOW_STYLES, SYMMETRY_WORDS
from ..model.puzzle import SEARCH_METHODS, SEARCH_MODES
from .analysis import Analysis
from .context import Context, in_comment_or_text
from .declarations import Declaration
from .positions import Positions
from .words import WORDS

TOKEN = re.compile(r"[A-Za-z0-9_]+'*")  # a name, or a word of cells
EMPTY = "_"

COMPLETION_KINDS = {
    "parameter": types.CompletionItemKind.Variable,
    "piece": types.CompletionItemKind.Constant,
    "kind of piece": types.CompletionItemKind.Class,
    "group": types.CompletionItemKind.Enum,
    "place": types.CompletionItemKind.Struct,
    "stack": types.CompletionItemKind.Struct,
    "cell": types.CompletionItemKind.Value,
    "counter": types.CompletionItemKind.Property,
    "carrier": types.CompletionItemKind.Property,
    "direction": types.CompletionItemKind.Unit,
    "shape": types.CompletionItemKind.Unit,
    "neighbourhood": types.CompletionItemKind.Unit,
    "move": types.CompletionItemKind.Function,
}


class Found(NamedTuple):
    """The declarations of what is under the cursor, and the columns it spans (0-based, Python)."""

    declarations: tuple[Declaration, ...]
    start: int
    end: int


def lookup(analysis: Analysis, positions: Positions, position: types.Position) -> Found | None:
    """The declarations of the name (or the piece in a word of cells) at an LSP position."""
    line = positions.line(position.line)
    column = positions.column_at(position)
    if in_comment_or_text(line, column):
        return None
    token = next((m for m in TOKEN.finditer(line) if m.start() <= column <= m.end()), None)
    if token is None or line[token.start() - 1 : token.start()] == "?":  # `?x`: a move's own variable
        return None
    named = tuple(d for d in analysis.declarations if d.name == token.group())
    if named:
        return Found(named, token.start(), token.end())
    pieces: dict[str, tuple[Declaration, ...]] = {}
    for declaration in analysis.declarations:
        if declaration.kind == "piece" and len(declaration.name) == 1:
            pieces[declaration.name] = (*pieces.get(declaration.name, ()), declaration)
    word = token.group()
    if word in keywords() or not all(char in pieces or char == EMPTY for char in word):
        return None
    at = min(column, token.end() - 1)
    return Found(pieces[line[at]], at, at + 1) if line[at] in pieces else None


def hover(found: Found, analysis: Analysis, positions: Positions, index: int) -> types.Hover:
    """Each declaration's line as written, and what it declares."""
    parts = []
    for declaration in found.declarations:
        written = positions.line(declaration.pos.line - 1).strip()
        fence = "`" * max(3, _longest_run(written, "`") + 1)
        parts.append(f"{fence}puz\n{written}\n{fence}\n{_described(declaration, analysis)}")
    span = types.Range(start=positions.position(index, found.start), end=positions.position(index, found.end))
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)), range=span
    )


def definitions(found: Found, uri: str, positions: Positions) -> list[types.Location]:
    return [types.Location(uri=uri, range=positions.range_of(d.pos)) for d in found.declarations]


def completions(analysis: Analysis, context: Context | None) -> types.CompletionList:
    """What may be written at the cursor (context.py): the names that fit there, then the
    words of the language the grammar accepts there. Where the context cannot be told (the
    statement so far has a mistake), every name the spec declares and every word."""
    if context is None:
        names: list[Declaration | str] = [*_first_of_each(analysis.declarations)]
        words = sorted(keywords())
        cells: list[types.CompletionItem] = []
    else:
        names = fitting(analysis, context)
        words = sorted(context.keywords)
        cells = _cells(analysis, context) if "CELLS" in context.accepts else []
    items = [_named(name) for name in names]
    shown = {item.label for item in items}
    items += cells
    items += [_word(word) for word in words if word not in shown]
    return types.CompletionList(is_incomplete=False, items=items)


def fitting(analysis: Analysis, context: Context) -> list[Declaration | str]:
    """The names that fit where the grammar accepts a NAME: the words before it say what it
    names (after `along` a direction, after `per` a group, in an expression a value ...).
    A name the statement declares is new: nothing is offered for it."""
    if "NAME" not in context.accepts:
        return []
    previous, first, words = context.previous, context.first, context.words
    declared = _first_of_each(analysis.declarations)
    if (len(words) == 1 and first in NEW_NAME) or (first == "piece" and len(words) == 2):
        return []
    if first in NEW_NAMES or words[:2] in (("board", "places"), ("board", "graph")):
        return []  # a list of new places, stacks or cells
    if previous == "along" or (first == "move" and previous == "," and _after_along(words)):
        own = _of(declared, "direction")
        return [*own, *(d for d in analysis.directions if d not in _names(own))]
    if previous == "in" and first == "move":
        return _of(declared, "carrier") if "carry" in words else _of(declared, "shape", "neighbourhood")
    if previous == "at":
        return _of(declared, "place", "stack", "cell", "carrier")
    if first in ("link", "route"):  # the cells a link joins, the places a route does
        return _of(declared, "cell", "place", "stack")
    if previous == "*" and first in ("start", "goal"):  # a layout's repeat count: `B*n`
        return _of(declared, "parameter")
    if previous == "per":
        return _of(declared, "group")
    if first == "symmetry":
        return _symmetry_names(declared, words)
    if previous in ("every", "some", "no", "is", "not"):
        return _of(declared, "kind of piece", "piece")
    if first is not None and first in FIXED_WORDS:
        chosen = FIXED_WORDS[first].get(previous or "")
        if chosen is not None:
            return list(chosen)
    if "NUMBER" in context.accepts:  # an expression: a value
        return [d for d in declared if d.kind in VALUES]
    return list(declared)


# Statements whose second word is a name they declare.
NEW_NAME = frozenset(
    {"param", "counter", "direction", "shape", "neighbourhood", "neighborhood", "group", "carrier", "move", "piece"}
)
NEW_NAMES = frozenset({"places", "place", "stacks", "stack"})  # statements that declare a list of names
NEW_NAME |= NEW_NAMES
# What a declared name may stand for in an expression.
VALUES = frozenset({"parameter", "counter", "kind of piece", "piece", "place", "stack", "cell", "group", "carrier"})
# Names that are not declared but fixed by the language, after a statement's word.
FIXED_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "search": {"search": SEARCH_MODES, "by": SEARCH_METHODS},
    "show": {"show": SHOW_STYLES},
}


def _symmetry_names(declared: list[Declaration], words: tuple[str, ...]) -> list[Declaration | str]:
    """In `symmetry P + Q, ...`: a symmetry's word at the start of a part (the board's, `swap`,
    `complement`, `cycle`); after `swap` the two pieces or places it exchanges; after `cycle`
    the cells it moves (a board's cells are named by the board, not declared: none offered
    where the spec declares none). After a word of the board's, or complement, nothing is a
    name."""
    cut = max((i for i, word in enumerate(words) if word in ("symmetry", ",", "+")), default=-1)
    part = words[cut + 1 :]
    if not part:
        return list(SYMMETRY_WORDS)
    if part[0] == "swap" and len(part) <= 2:
        return _of(declared, "piece", "place")
    if part[0] == "cycle":
        return _of(declared, "cell")
    return []


def _after_along(words: tuple[str, ...]) -> bool:
    """Whether a move's words end in `along D1, D2, ...,` (more directions may follow)."""
    if "along" not in words:
        return False
    tail = words[len(words) - words[::-1].index("along") :]
    return all(word == "," or TOKEN.fullmatch(word) for word in tail)


def _first_of_each(declarations: tuple[Declaration, ...]) -> list[Declaration]:
    first: dict[str, Declaration] = {}
    for declaration in declarations:
        first.setdefault(declaration.name, declaration)
    return list(first.values())


def _of(declared: list[Declaration], *kinds: str) -> list[Declaration | str]:
    return [d for d in declared if d.kind in kinds]


def _names(declared: list[Declaration | str]) -> set[str]:
    return {d if isinstance(d, str) else d.name for d in declared}


def _named(name: Declaration | str) -> types.CompletionItem:
    if isinstance(name, str):  # a word the language fixes (`shortest`, `ladder`) or a board's direction
        return types.CompletionItem(label=name, kind=types.CompletionItemKind.EnumMember, sort_text=f"0 {name}")
    return types.CompletionItem(
        label=name.name,
        kind=COMPLETION_KINDS.get(name.kind, types.CompletionItemKind.Text),
        detail=f"{name.kind}, line {name.pos.line}",
        sort_text=f"0 {name.name}",
    )


def _word(word: str) -> types.CompletionItem:
    doc = WORDS.get(word)
    return types.CompletionItem(
        label=word,
        kind=types.CompletionItemKind.Keyword,
        sort_text=f"1 {word}",
        detail=_first_sentence(word),
        documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc) if doc is not None else None,
    )


def _cells(analysis: Analysis, context: Context) -> list[types.CompletionItem]:
    """Where the grammar accepts cells (a pattern, a layout, a picture's row): the word typed so
    far and one more cell, each piece's symbol or `_` for empty."""
    symbols = [d.name for d in _first_of_each(analysis.declarations) if d.kind == "piece" and len(d.name) == 1]
    typed = context.typed if all(char in symbols or char == EMPTY for char in context.typed) else ""
    return [
        types.CompletionItem(
            label=typed + symbol,
            kind=types.CompletionItemKind.Constant,
            detail="empty cell" if symbol == EMPTY else f"piece {symbol}",
            sort_text=f"0 {typed + symbol}",
        )
        for symbol in [*symbols, EMPTY]
    ]


def keyword_hover(positions: Positions, position: types.Position) -> types.Hover | None:
    """What the word of the language under the cursor means (words.py)."""
    line = positions.line(position.line)
    column = positions.column_at(position)
    if in_comment_or_text(line, column):
        return None
    token = next((m for m in TOKEN.finditer(line) if m.start() <= column <= m.end()), None)
    if token is None or token.group() not in WORDS:
        return None
    span = types.Range(
        start=positions.position(position.line, token.start()), end=positions.position(position.line, token.end())
    )
    text = f"**{token.group()}** — {WORDS[token.group()]}"
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text), range=span)


def _first_sentence(word: str) -> str | None:
    doc = WORDS.get(word)
    return doc.split(": ", 1)[0].strip("`") if doc is not None else None


def _described(declaration: Declaration, analysis: Analysis) -> str:
    statement, name = declaration.statement, f"`{declaration.name}`"
    text = f"{declaration.kind} {name}"
    if isinstance(statement, s.Param):
        text += f": {statement.doc}" if statement.doc else ""
        default = analysis.defaults.get(statement.name)
        text += f" (default `{default}`)" if default is not None else ""
    elif isinstance(statement, s.PieceDecl) and declaration.kind == "piece":
        text += f" ({statement.kind})" if statement.kind else ""
        text += f": {statement.description}" if statement.description else ""
    elif isinstance(statement, s.PieceDecl):
        text += f", of piece `{statement.symbol}`"
    elif isinstance(statement, s.CounterDecl) and statement.doc:
        text += f": {statement.doc}"
    return f"{text} — line {declaration.pos.line}"


def _longest_run(text: str, char: str) -> int:
    return max((len(run) for run in re.findall(f"{re.escape(char)}+", text)), default=0)
