"""Reading the text files a user hands to puzint (specs, expectation files): bounded in size,
UTF-8 with or without a byte-order mark, and every problem reported at its line and column.

A spec is a page of text; a file many times larger is a mistake (the wrong file, a generated
dump), and parsing it first would cost seconds and hundreds of MB before saying so.
"""

from __future__ import annotations

from pathlib import Path

from .errors import Diagnostic, Pos, SpecError

MAX_BYTES = 1_000_000
MAX_LINE = 10_000
BOM = "\ufeff"


def read_source(path: str | Path, what: str = "spec") -> str:
    """The file's text, or a SpecError that says where and why it cannot be read."""
    name = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise SpecError([Diagnostic(Pos(0, 0), f"cannot read the {what}: {reason}")], "", name) from None
    if len(data) > MAX_BYTES:
        raise SpecError(
            [Diagnostic(Pos(0, 0), f"the {what} is larger than {MAX_BYTES:,} bytes", f"a {what} file of text")],
            "",
            name,
        )
    text = decode(data, name, what)
    check_lines(text, name, what)
    return text


def decode(data: bytes, filename: str, what: str = "spec") -> str:
    """UTF-8 text (a leading byte-order mark is dropped); a byte that is not UTF-8 is shown at
    its line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", errors="replace")) + 1
        shown = data.decode("utf-8", errors="replace")
        byte = data[exc.start]
        raise SpecError(
            [
                Diagnostic(
                    Pos(line, column),
                    f"this byte (0x{byte:02x}) is not UTF-8: the {what} must be saved as UTF-8 text",
                    "UTF-8 text",
                )
            ],
            shown,
            filename,
        ) from None
    return text[1:] if text.startswith(BOM) else text


def check_lines(text: str, filename: str, what: str = "spec") -> None:
    """Refuse a line too long to be anything a person wrote, before any parser sees it."""
    start = 0
    line = 1
    while True:
        end = text.find("\n", start)
        stop = len(text) if end < 0 else end
        if stop - start > MAX_LINE:
            raise SpecError(
                [
                    Diagnostic(
                        Pos(line, MAX_LINE + 1),
                        f"this line is longer than {MAX_LINE:,} characters ({stop - start:,})",
                        f"lines of at most {MAX_LINE:,} characters",
                    )
                ],
                text,
                filename,
            )
        if end < 0:
            return
        start = end + 1
        line += 1
