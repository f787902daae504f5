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
from .analysis import Analysis
from .declarations import Declaration
from .positions import Positions

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
    if _in_comment_or_text(line, column):
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


def completions(analysis: Analysis) -> types.CompletionList:
    """The names the spec declares, then the words of the language."""
    first: dict[str, Declaration] = {}
    for declaration in analysis.declarations:
        first.setdefault(declaration.name, declaration)
    items = [
        types.CompletionItem(
            label=name,
            kind=COMPLETION_KINDS.get(declaration.kind, types.CompletionItemKind.Text),
            detail=f"{declaration.kind}, line {declaration.pos.line}",
            sort_text=f"0 {name}",
        )
        for name, declaration in first.items()
    ]
    items.extend(
        types.CompletionItem(label=word, kind=types.CompletionItemKind.Keyword, sort_text=f"1 {word}")
        for word in sorted(keywords())
        if word not in first
    )
    return types.CompletionList(is_incomplete=False, items=items)


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


def _in_comment_or_text(line: str, column: int) -> bool:
    """Whether a column lies in a comment or in quoted text (`"#"` is text, not a comment)."""
    quoted = False
    for char in line[:column]:
        if char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return True
    return quoted


def _longest_run(text: str, char: str) -> int:
    return max((len(run) for run in re.findall(f"{re.escape(char)}+", text)), default=0)
