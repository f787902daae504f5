"""Python-style blocks for the grammar: the indentation of each line turned into tokens, and
a line that dedents to no enclosing block reported at its place. Both the parser and the
script that builds its shipped tables (`tables`) hand it to lark."""

from __future__ import annotations

from typing import ClassVar

from lark import Token
from lark.indenter import Indenter

from ..errors import Diagnostic, Pos, SpecError

PICTURE_WORDS = frozenset({"start", "goal", "board", "shape", "regions", "level"})  # `WORD:` opens a picture
WORDS = frozenset({"NAME", "CELLS", "NUMBER", "VAR"})  # the terminals a word of the spec's own may be


class PuzIndenter(Indenter):
    """Python-style blocks: INDENT/DEDENT tokens from leading whitespace. The rows of a
    picture (`start:`, `goal:`, `board:`, `regions:`, a piece's `shape:`) may be indented
    unevenly, so that numbers can be right-aligned: any line indented past the picture's
    statement is one of its rows."""

    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR", "LSQB"]
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def process(self, stream):  # type: ignore[no-untyped-def]
        self.pictures = [False]  # for each open block: whether it holds a picture's rows
        self.tail: tuple[str, str] = ("", "")  # the last two tokens' text
        return super().process(self._watched(stream))

    def _watched(self, stream):  # type: ignore[no-untyped-def]
        before = None
        for token in stream:
            if before is not None and _glued(before, token):
                _refuse_glued(before, token)
            before = token
            self.opens_picture = self.tail[0] in PICTURE_WORDS and self.tail[1] == ":"
            self.tail = (self.tail[1], str(token) if token.type != self.NL_type else "\n")
            yield token

    def handle_NL(self, token: Token):  # type: ignore[no-untyped-def]
        if self.paren_level > 0:
            return
        yield token
        indent_str = token.rsplit("\n", 1)[1]
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        levels = self.indent_level
        if self.pictures[-1] and indent > levels[-2]:
            return  # one more row of the picture, however it is indented
        if indent > levels[-1]:
            levels.append(indent)
            self.pictures.append(self.opens_picture)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
            return
        while indent < levels[-1]:
            levels.pop()
            self.pictures.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)
        if indent != levels[-1]:
            line = (token.end_line or token.line or 1) if token.end_line else (token.line or 1)
            raise SpecError(
                [
                    Diagnostic(
                        Pos(line, indent + 1),
                        "this line's indentation matches no enclosing block",
                        "the same indentation as the lines of an enclosing block",
                    )
                ]
            )


def _glued(before: Token, token: Token) -> bool:
    """Whether `before` is a keyword that the lexer cut off a longer word, `token` being the
    rest of it: lark tries a keyword before a name, so `searchany` is read as `search any`
    and `fillcells` as `fill cells`, and would be obeyed. The rest begins with a letter (a
    number after a keyword, as `3x4` for `3 x 4`, is the keyword and the number)."""
    word = str(before)
    return (
        before.type not in WORDS
        and word.isidentifier()
        and str(token)[:1].isalpha()
        and token.line == before.line
        and token.column == before.end_column
    )


def _refuse_glued(before: Token, token: Token) -> None:
    raise SpecError([glued(before.line or 1, before.column or 1, str(before), str(token))])


def glued(line: int, column: int, word: str, rest: str) -> Diagnostic:
    """The error of a keyword run into the word after it, at the keyword (the parser says
    the same where it refuses the rest: `parser._glued_keyword`)."""
    return Diagnostic(
        Pos(line, column, len(word) + len(rest)),
        f"'{word}{rest}' is the keyword '{word}' run into '{rest}'",
        f"'{word} {rest}', with a space, or a word the language knows here",
    )
