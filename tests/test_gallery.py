"""docs/gallery.md: a picture of every shipped spec, current (its fingerprints match the specs
and the drawing code; a stale one says how to redraw it), and each picture a valid SVG."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from puzint import gallery
from puzint.cli import main
from puzint.gallery import PAGE, PICTURES, entries, picture

DOCS = Path(__file__).resolve().parent.parent / "docs"
REDRAW = "the gallery is out of date: run `puzint gallery docs` and commit docs/gallery.md and docs/gallery/"


def recorded() -> dict[str, str]:
    text = (DOCS / PAGE).read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- fingerprint (\S+) (\S+) -->", text))


def test_every_shipped_spec_has_a_current_picture() -> None:
    fingerprints = recorded()
    shipped = {entry.name: entry.fingerprint() for entry in entries()}
    assert set(fingerprints) == set(shipped), REDRAW
    stale = sorted(name for name, print_ in shipped.items() if fingerprints[name] != print_)
    assert not stale, f"{REDRAW} (stale: {', '.join(stale)})"
    drawn = {path.stem for path in (DOCS / PICTURES).glob("*.svg")}
    assert drawn == set(shipped), REDRAW


def test_every_picture_is_a_document_with_a_board_per_state() -> None:
    for path in sorted((DOCS / PICTURES).glob("*.svg")):
        root = ET.parse(path).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg", path.name
        assert root.findall("{http://www.w3.org/2000/svg}g"), f"{path.name} draws nothing"


def test_a_picture_drawn_again_is_the_one_in_the_gallery() -> None:
    """Hanoi's shortest solution is the only one: its picture is the same wherever it is drawn."""
    (hanoi,) = [entry for entry in entries() if entry.name == "hanoi"]
    assert picture(hanoi) == (DOCS / PICTURES / "hanoi.svg").read_text(encoding="utf-8")


# ---- where `puzint gallery DIR` writes (files.py): never through a link, never over a directory


@pytest.fixture
def one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A gallery of the frog alone: what is written, not every spec's drawing, is tested here."""
    (frog,) = [entry for entry in entries() if entry.name == "frog"]
    monkeypatch.setattr(gallery, "entries", lambda: iter([frog]))


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim"
    path.write_text("the user's own\n")
    return path


def drawn(capsys: pytest.CaptureFixture[str], folder: Path) -> tuple[int, str]:
    code = main(["gallery", str(folder)])
    return code, capsys.readouterr().err


def test_the_gallery_is_written_and_a_stale_link_removed_not_followed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, victim: Path, one_entry: None
) -> None:
    docs = tmp_path / "docs"
    (docs / PICTURES).mkdir(parents=True)
    (docs / PICTURES / "gone.svg").symlink_to(victim)  # a spec no longer shipped
    assert drawn(capsys, docs) == (0, "")
    assert sorted(p.name for p in (docs / PICTURES).iterdir()) == ["frog.svg"]
    assert "<!-- fingerprint frog " in (docs / PAGE).read_text() and victim.read_text() == "the user's own\n"


@pytest.mark.parametrize("name", [PAGE, f"{PICTURES}/frog.svg", PICTURES])
def test_a_link_planted_in_the_gallery_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, victim: Path, one_entry: None, name: str
) -> None:
    docs = tmp_path / "docs"
    (docs / PICTURES).mkdir(parents=True)
    if name == PICTURES:
        (docs / PICTURES).rmdir()
        victim = tmp_path / "elsewhere"  # a folder of the user's, where the pictures would go
        victim.mkdir()
    (docs / name).symlink_to(victim)
    assert drawn(capsys, docs) == (2, f"puzint: cannot write {docs / name}: it is a symbolic link\n")
    assert (docs / name).is_symlink()
    if victim.is_dir():
        assert list(victim.iterdir()) == []
    else:
        assert victim.read_text() == "the user's own\n"


@pytest.mark.parametrize("name", [PAGE, f"{PICTURES}/frog.svg"])
def test_a_directory_in_the_gallery_s_place_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, one_entry: None, name: str
) -> None:
    docs = tmp_path / "docs"
    (docs / name).mkdir(parents=True)
    assert drawn(capsys, docs) == (2, f"puzint: cannot write {docs / name}: it is a directory\n")
    assert list((docs / name).iterdir()) == []


def test_a_read_only_folder_is_said_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, one_entry: None, read_only_file_system: None
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    assert drawn(capsys, docs) == (2, f"puzint: cannot write {docs / PICTURES / 'frog.svg'}: Read-only file system\n")
    assert sorted(p.name for p in docs.rglob("*")) == [PICTURES]


def test_a_folder_that_does_not_exist_yet_is_made(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, one_entry: None
) -> None:
    docs = tmp_path / "new" / "docs"
    assert drawn(capsys, docs) == (0, "")
    assert sorted(p.name for p in (docs / PICTURES).iterdir()) == ["frog.svg"] and (docs / PAGE).is_file()
