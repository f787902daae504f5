"""Reading spec files: a byte-order mark accepted, bytes that are not UTF-8 shown at their line
and column, files and lines too large for a person to have written refused before parsing,
every kind of line end counted as one, the same way by the parser and by the line shown.
An error never echoes another file: a link is followed only to a spec (an expectation file),
and a file that is not UTF-8 has no line shown."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.errors import SpecError
from puzint.sources import MAX_BYTES, MAX_LINE, read_source

FROG_LINE = b"board line 3\npiece A\nstart A _ _\ngoal _ _ A\nmove s: A _ -> _ A along right\n"


def refusal(path: Path) -> str:
    with pytest.raises(SpecError) as caught:
        read_source(path)
    return caught.value.render()


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    spec = tmp_path / "bom.puz"
    spec.write_bytes(b"\xef\xbb\xbf" + FROG_LINE)
    assert read_source(spec).startswith("board line 3\n")


def test_a_latin1_byte_is_shown_at_its_line_and_column_without_the_line(tmp_path: Path) -> None:
    spec = tmp_path / "latin1.puz"
    spec.write_bytes(b'board line 3\npuzzle "caf\xe9"\n')
    assert refusal(spec).splitlines() == [
        f"{spec}:2:12: this byte (0xe9) is not UTF-8: the spec must be saved as UTF-8 text",
        "  expected UTF-8 text",
    ]


def test_a_file_too_large_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    spec = tmp_path / "huge.puz"
    spec.write_bytes(b"#" * (5 * MAX_BYTES))
    assert refusal(spec).splitlines()[0] == f"{spec}: the spec is larger than {MAX_BYTES:,} bytes"


def test_the_file_refused_is_named_once(tmp_path: Path) -> None:
    """A solution file too large: "expected a solution file of text", not "a solution file
    file" (the kind of file read is named by its caller, with or without "file")."""
    moves = tmp_path / "huge.moves"
    moves.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(SpecError) as caught:
        read_source(moves, "solution file")
    assert caught.value.render().splitlines() == [
        f"{moves}: the solution file is larger than {MAX_BYTES:,} bytes",
        "  expected a solution file of text",
    ]
    spec = tmp_path / "huge.puz"
    spec.write_bytes(b"#" * (MAX_BYTES + 1))
    assert refusal(spec).splitlines()[1] == "  expected a spec file of text"


def test_a_line_too_long_is_refused_at_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "long.puz"
    spec.write_bytes(b'board line 3\nparam s = "' + b"a" * (MAX_LINE * 5) + b'"\n')
    first = refusal(spec).splitlines()[0]
    assert first == f"{spec}:2:{MAX_LINE + 1}: this line is longer than {MAX_LINE:,} characters ({MAX_LINE * 5 + 12:,})"


SECRET = "sk_live_0123456789 the token"


def test_a_link_to_a_file_that_is_not_a_spec_is_not_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`puzint check` on a checkout where someone planted `x.puz -> ~/.config/token`: the
    parser would quote the token's first word, and the error echo its line."""
    secret = tmp_path / "token"
    secret.write_text(SECRET + "\n")
    link = tmp_path / "x.puz"
    link.symlink_to(secret)
    assert main(["run", str(link)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"{link}: not read: a link to {secret}, which is not a .puz file\n  expected a link to a .puz file\n"
    )


def test_a_link_to_a_spec_is_read(tmp_path: Path) -> None:
    spec = tmp_path / "frog.puz"
    spec.write_bytes(FROG_LINE)
    (tmp_path / "linked.puz").symlink_to(spec)
    assert read_source(tmp_path / "linked.puz") == FROG_LINE.decode()


def test_a_link_to_an_expectation_file_must_lead_to_yaml(tmp_path: Path) -> None:
    (tmp_path / "cases.yml").write_text("cases: []\n")
    (tmp_path / "token").write_text(SECRET)
    (tmp_path / "a.yaml").symlink_to(tmp_path / "cases.yml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "token")
    assert read_source(tmp_path / "a.yaml", "expectation file") == "cases: []\n"
    with pytest.raises(SpecError) as caught:
        read_source(tmp_path / "b.yaml", "expectation file")
    assert SECRET not in caught.value.render()


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="a pipe named by a path: Linux's /proc/self/fd")
def test_a_link_to_a_pipe_is_read(tmp_path: Path) -> None:
    """`puzint run <(...)` and `puzint run /dev/stdin` name a pipe through a link."""
    reading, writing = os.pipe()
    try:
        os.write(writing, FROG_LINE)
        os.close(writing)
        assert read_source(f"/proc/self/fd/{reading}") == FROG_LINE.decode()
    finally:
        os.close(reading)


@pytest.mark.parametrize("line_end", [b"\r", b"\r\n"])
def test_the_line_ends_of_old_macs_and_windows_are_line_ends(tmp_path: Path, line_end: bytes) -> None:
    spec = tmp_path / "mac.puz"
    spec.write_bytes(FROG_LINE.replace(b"\n", line_end))
    assert read_source(spec) == FROG_LINE.decode()


def test_a_mistake_after_cr_line_ends_is_shown_at_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "mac.puz"
    spec.write_bytes(FROG_LINE.replace(b"start A _ _", b"start A _ Z").replace(b"\n", b"\r"))
    assert main(["run", str(spec)]) == 2
    assert capsys.readouterr().err.splitlines()[:3] == [
        f"{spec}:3:11: unknown piece 'Z'",
        "   3 | start A _ Z",
        "     |           ^",
    ]


def test_a_line_separator_in_a_comment_does_not_shift_the_line_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "separator.puz"
    text = FROG_LINE.decode().replace("piece A\n", "piece A  # a\u2028b\x0cc\n").replace("start A _ _", "start A _ Z")
    spec.write_text(text, encoding="utf-8")
    assert main(["run", str(spec)]) == 2
    assert capsys.readouterr().err.splitlines()[:2] == [f"{spec}:3:11: unknown piece 'Z'", "   3 | start A _ Z"]


def test_a_byte_that_is_not_utf8_after_cr_line_ends_is_shown_at_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "latin1.puz"
    spec.write_bytes(b'board line 3\rpuzzle "caf\xe9"\r')
    assert refusal(spec).splitlines() == [
        f"{spec}:2:12: this byte (0xe9) is not UTF-8: the spec must be saved as UTF-8 text",
        "  expected UTF-8 text",
    ]
