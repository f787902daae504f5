"""The renderers' XML escaping is the standard library's (`xml.sax.saxutils`), without its import."""

from __future__ import annotations

import itertools
from xml.sax.saxutils import escape as sax_escape
from xml.sax.saxutils import quoteattr as sax_quoteattr

from puzint.render.xml_text import escape, quoteattr

ALPHABET = "a&<>\"'\n\r\t·"


def test_every_short_text_is_escaped_and_quoted_as_saxutils_does() -> None:
    texts = ["".join(chars) for n in range(4) for chars in itertools.product(ALPHABET, repeat=n)]
    assert len(texts) == 1 + 10 + 100 + 1000
    assert [escape(text) for text in texts] == [sax_escape(text) for text in texts]
    assert [quoteattr(text) for text in texts] == [sax_quoteattr(text) for text in texts]


def test_a_value_with_both_quotes_is_double_quoted_with_its_double_quotes_as_entities() -> None:
    assert quoteattr("a\"b'c\n") == '"a&quot;b\'c&#10;"'
    assert quoteattr('say "x"') == "'say \"x\"'"
