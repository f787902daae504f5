"""`puzint list` names every shipped spec with its parameters; `puzint play` needs a terminal
(the game itself is tested through textual's pilot, tests/play/test_app.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from puzint.cli import main

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.stem for p in (ROOT / "specs").glob("*.puz"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_names_every_shipped_spec_with_its_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list", "--format", "json")
    specs = json.loads(out)["specs"]
    assert code == 0 and err == "" and [spec["name"] for spec in specs] == SHIPPED
    frog = next(spec for spec in specs if spec["name"] == "frog")
    assert frog["title"] == "Frog jump" and frog["params"] == {"n": {"default": 3, "about": "frogs of each colour"}}
    code, out, _ = run(capsys, "list")
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("frog "))
    assert lines[at].split() == ["frog", "Frog", "jump"] and "n=3: frogs of each colour" in out
    assert lines[-1] == f"{len(SHIPPED)} specs: puzint run NAME [-p NAME=VALUE]"


def test_play_without_a_terminal_says_what_to_do_instead(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "play", "frog")
    assert code == 2 and out == ""
    assert err == (
        "puzint: puzint play needs a terminal to play in (to check a solution file without one: "
        "puzint run SPEC --replay FILE)\n"
    )


def test_play_reports_a_bad_spec_before_asking_for_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "frgo")
    assert code == 2 and "did you mean 'frog'" in err


def test_play_refuses_a_save_it_could_not_write_before_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.write_text("the user's own\n")
    (tmp_path / "link.moves").symlink_to(victim)
    (tmp_path / "folder.moves").mkdir()
    elsewhere = "(--save FILE saves the moves elsewhere)"
    for name, why in [
        ("link.moves", "it is a symbolic link"),
        ("folder.moves", "it is a directory"),
        ("none/x.moves", "its folder does not exist"),
    ]:
        code, out, err = run(capsys, "play", "frog", "--save", str(tmp_path / name))
        assert (code, out, err) == (2, "", f"puzint: cannot write {tmp_path / name}: {why} {elsewhere}\n")
    assert victim.read_text() == "the user's own\n"


def test_play_ending_after_a_failed_save_says_so_and_exits_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game shows a failed save (tests/play/test_app.py); once its screen is gone, the
    command says it again, and does not end as if all went well."""
    from puzint.files import CannotWrite
    from puzint.play.app import PlayApp

    def game_whose_save_failed(app: PlayApp) -> None:
        app.unsaved = CannotWrite(app.save_to, "Read-only file system")

    monkeypatch.setattr(PlayApp, "run", game_whose_save_failed)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    save_to = tmp_path / "frog.moves"
    code, _, err = run(capsys, "play", "frog", "--save", str(save_to))
    assert (code, err) == (2, f"puzint: the moves were not saved: cannot write {save_to}: Read-only file system\n")
