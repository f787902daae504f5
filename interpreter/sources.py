"""Reading the text files a user hands to puzint (specs, expectation files): bounded in size,
UTF-8 with or without a byte-order mark, and every problem reported at its line and column.

A spec is a page of text; a file many times larger is a mistake (the wrong file, a generated
dump), and parsing it first would cost seconds and hundreds of MB before saying so.

An error echoes the line it is about, and quotes words of it: puzint must not be made to
echo another file that way. A file named through a symbolic link is read only if the link
leads to a file of its kind (a .puz spec, a .yaml expectation file) or to a pipe (`puzint
run <(...)`, /dev/stdin); and a file that is not UTF-8 text (not a spec, whatever its name)
has no line shown, only the position and the byte that is not UTF-8.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .catalogue import shipped_names
from .errors import NOWHERE, Diagnostic, Pos, SpecError, suggest

MAX_BYTES = 1_000_000
MAX_LINE = 10_000
BOM = "\ufeff"
SUFFIXES = {"spec": (".puz",), "expectation file": (".yaml", ".yml")}


def read_source(path: str | Path, what: str = "spec") -> str:
    """The file's text, or a SpecError that says where and why it cannot be read."""
    name = str(path)
    refuse_links_elsewhere(name, what)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if isinstance(exc, FileNotFoundError) and what == "spec":
            stem = Path(name).name.removesuffix(".puz")
            reason += suggest(stem, shipped_names())  # a shipped spec's name, mistyped
        raise SpecError([Diagnostic(Pos(0, 0), f"cannot read the {what}: {reason}")], "", name) from None
    if len(data) > MAX_BYTES:
        raise _too_large(name, what)
    return _checked(decode(data, name, what), name, what)


def read_text(text: object, name: str, what: str = "spec") -> str:
    """A spec handed over as text (the API's `load(text=...)`), held to the bounds a file is
    held to, with the same messages: a string of megabytes on one line would otherwise keep
    the parser busy for minutes before anything could be said about it."""
    if not isinstance(text, str):
        raise TypeError(f"the text of a {what} is a str, got {type(text).__name__}")
    if len(text) > MAX_BYTES or len(text.encode("utf-8", errors="surrogatepass")) > MAX_BYTES:
        raise _too_large(name, what)
    return _checked(text.removeprefix(BOM), name, what)


def line_ends(text: str) -> str:
    """Every line end as `\n`: Windows' `\r\n` and old Macs' `\r` alike, so that every
    position (the parser's, YAML's, the one shown under a caret) counts the same lines."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _checked(text: str, name: str, what: str) -> str:
    text = line_ends(text)
    check_lines(text, name, what)
    return text


def refuse_links_elsewhere(name: str, what: str) -> None:
    """A link among specs (planted in a checkout that `puzint check` runs on, say) must not
    make puzint read, and quote in its errors, another file that the user can read: a key,
    a password file, /proc/self/environ."""
    if not os.path.islink(name):
        return
    try:
        status = os.stat(name)
    except OSError:
        return  # a link to nothing: reading it says so
    target = os.path.realpath(name)
    suffixes = SUFFIXES.get(what, ())
    if stat.S_ISFIFO(status.st_mode) or (stat.S_ISREG(status.st_mode) and target.lower().endswith(suffixes)):
        return
    kind = " or ".join(suffixes) or "such a"
    raise SpecError(
        [Diagnostic(NOWHERE, f"not read: a link to {target}, which is not a {kind} file", f"a link to a {kind} file")],
        "",
        name,
    )


def _too_large(name: str, what: str) -> SpecError:
    message = f"the {what} is larger than {MAX_BYTES:,} bytes"
    file = what if what.endswith("file") else f"{what} file"  # "a solution file", not "a solution file file"
    return SpecError([Diagnostic(Pos(0, 0), message, f"a {file} of text")], "", name)


def decode(data: bytes, filename: str, what: str = "spec") -> str:
    """UTF-8 text (a leading byte-order mark is dropped); a byte that is not UTF-8 is shown at
    its line and column, without the line: the file may be anything but a spec."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
        byte = data[exc.start]
        raise SpecError(
            [
                Diagnostic(
                    Pos(line, column),
                    f"this byte (0x{byte:02x}) is not UTF-8: the {what} must be saved as UTF-8 text",
                    "UTF-8 text",
                )
            ],
            "",
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
