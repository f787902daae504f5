"""Text and attribute values escaped for XML (SVG, GraphML, HTML), as `xml.sax.saxutils`
escapes them: that module imports urllib's request machinery (0.02 s of every run's start-up,
for three string replacements), so the renderers use these instead."""

from __future__ import annotations

_IN_ATTRIBUTES = (("\n", "&#10;"), ("\r", "&#13;"), ("\t", "&#9;"))


def escape(data: str) -> str:
    """&, < and > escaped (`xml.sax.saxutils.escape`)."""
    return data.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(data: str) -> str:
    """An attribute's value escaped and quoted (`xml.sax.saxutils.quoteattr`): line ends and
    tabs as character references; in single quotes where it holds a double quote and no
    single one, else in double quotes with any double quote as &quot;."""
    data = escape(data)
    for key, value in _IN_ATTRIBUTES:
        data = data.replace(key, value)
    if '"' not in data:
        return f'"{data}"'
    if "'" not in data:
        return f"'{data}'"
    return '"{}"'.format(data.replace('"', "&quot;"))
