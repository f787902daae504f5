"""Python-style blocks for the grammar: the indentation of each line turned into tokens, and
a line that dedents to no enclosing block reported at its place. Both the parser and the
script that builds its shipped tables (`tables`) hand it to lark."""

from __future__ import annotations

from typing import ClassVar

from lark import Token
from lark.indenter import DedentError, Indenter

from ..errors import Diagnostic, Pos, SpecError


class PuzIndenter(Indenter):
    """Python-style blocks: INDENT/DEDENT tokens from leading whitespace."""

    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR", "LSQB"]
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token: Token):  # type: ignore[no-untyped-def]
        try:
            yield from super().handle_NL(token)
        except DedentError:
            indent = len(token.rsplit("\n", 1)[1].expandtabs(self.tab_len))
            line = (token.end_line or token.line or 1) if token.end_line else (token.line or 1)
            raise SpecError(
                [
                    Diagnostic(
                        Pos(line, indent + 1),
                        "this line's indentation matches no enclosing block",
                        "the same indentation as the lines of an enclosing block",
                    )
                ]
            ) from None
