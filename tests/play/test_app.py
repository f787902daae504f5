"""`puzint play`, driven by textual's pilot with real key presses: the moves listed, played by
number and by Enter, undone and redone, a hint, the forbidden moves, the goal, and a save
that `run --replay` accepts."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from puzint.play.app import PlayApp
from puzint.play.record import read_solution
from puzint.runner import load
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static


def played(
    spec: str, params: dict[str, str], save_to: Path, script: Callable[[PlayApp, Pilot[None]], Awaitable[None]]
) -> PlayApp:
    app = PlayApp(load(spec, params), save_to, "puzint run test")

    async def drive() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(drive())
    return app


def shown(app: PlayApp, widget: str) -> str:
    content = app.query_one(widget, Static).render()
    return str(content.plain if hasattr(content, "plain") else content)


async def settle(app: PlayApp, pilot: Pilot[None]) -> None:
    """Until the engine's workers (the shortest solution, a hint) are done."""
    await app.workers.wait_for_complete()
    await pilot.pause()


def test_play_frog_to_the_goal_by_number_and_enter_and_save(tmp_path: Path) -> None:
    save_to = tmp_path / "frog.moves"

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await settle(app, pilot)
        assert [o.words for o in app.shown] == ["slide ● 1 → 2", "slide ○ 3 → 2"]
        assert "the shortest solution takes 3" in shown(app, "#status")
        await pilot.press("1")  # slide ● 1 → 2
        assert "move 1: slide ● 1 → 2" in shown(app, "#board")
        await pilot.press("enter")  # the highlighted (first) move: jump ○ 3 → 1
        await pilot.press("down", "up", "enter")  # the list's arrows: the first again
        assert app.game.solved
        assert "Solved in 3 moves · as short as can be" in shown(app, "#status")
        await pilot.press("s")
        assert f"saved 3 moves to {save_to}" in shown(app, "#status")

    app = played("specs/frog.puz", {"n": "1"}, save_to, script)
    assert [m.words for m in read_solution(app.game.compiled, save_to).moves] == [
        "slide ● 1 → 2",
        "jump ○ 3 → 1",
        "slide ● 2 → 3",
    ]


def test_undo_redo_and_a_hint_from_off_the_shortest_path(tmp_path: Path) -> None:
    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("2", "u")
        assert app.game.played == [] and "start" in shown(app, "#board")
        await pilot.press("u")
        assert "nothing to undo" in shown(app, "#status")
        await pilot.press("r")
        assert len(app.game.played) == 1
        await pilot.press("h")
        await settle(app, pilot)
        assert "hint: " in shown(app, "#status")
        highlighted = app.query_one("#moves", OptionList).highlighted
        assert highlighted is not None
        await pilot.press("enter")
        await pilot.press("h")
        await settle(app, pilot)
        await pilot.press("enter")
        assert app.game.solved and "Solved in 3 moves" in shown(app, "#status")

    played("specs/frog.puz", {"n": "1"}, tmp_path / "x.moves", script)


def test_forbidden_moves_are_shown_with_their_rule(tmp_path: Path) -> None:
    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        assert shown(app, "#forbidden") == ""
        await pilot.press("f")
        forbidden = shown(app, "#forbidden")
        assert "✗ cross H1 W2 → right: every wife w here:" in forbidden and "(line 28) at the boat" in forbidden
        assert forbidden.count("✗") == 12

    played("specs/jealous_husbands.puz", {}, tmp_path / "x.moves", script)


def test_a_dead_end_says_so_and_a_hint_says_why_not(tmp_path: Path) -> None:
    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("1", "1")  # slide ● 2 → 3, slide ● 1 → 2: _ ● ● ○ ○
        assert app.shown == [] and "No move can be made after 2 moves: u undoes" in shown(app, "#status")
        await pilot.press("h")
        await settle(app, pilot)
        assert "no hint: the goal cannot be reached from here" in shown(app, "#status")
        await pilot.press("9")
        assert "there is no move 9 here" in shown(app, "#status")

    played("specs/frog.puz", {"n": "2"}, tmp_path / "x.moves", script)


def test_moves_picked_by_clicking_the_board(tmp_path: Path) -> None:
    """Frog n = 1, drawn ` ●  ·  ○` under its caption: a cell is three columns wide."""

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.click("#board", offset=(7, 1))  # cell 3: only ○ 3 → 2 touches it
        assert [o.words for o in app.game.played] == ["slide ○ 3 → 2"]
        await pilot.click("#board", offset=(1, 1))  # cell 1: ● 1 → 3 (a jump) is the only move from it
        assert [o.words for o in app.game.played][-1] == "jump ● 1 → 3"

    played("specs/frog.puz", {"n": "1"}, tmp_path / "x.moves", script)


def test_a_place_clicked_keeps_the_moves_that_touch_it(tmp_path: Path) -> None:
    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.click("#board", offset=(2, 2))  # the line of the right bank: every crossing goes there
        assert len(app.shown) == 9 and app.picked == ["right"]
        await pilot.press("escape")
        assert app.picked == [] and len(app.shown) == 9

    played("specs/jealous_husbands.puz", {}, tmp_path / "x.moves", script)


def test_a_save_that_fails_is_said_in_the_game_which_goes_on(tmp_path: Path) -> None:
    save_to = tmp_path / "frog.moves"
    save_to.mkdir()  # put there after the command looked (it refuses a directory at the start)

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("1", "s")
        assert f"not saved: cannot write {save_to}: it is a directory" in shown(app, "#status")
        assert str(app.unsaved) == f"cannot write {save_to}: it is a directory"
        save_to.rmdir()
        await pilot.press("s")
        assert f"saved 1 move to {save_to}" in shown(app, "#status") and app.unsaved is None

    app = played("specs/frog.puz", {"n": "1"}, save_to, script)
    assert [m.words for m in read_solution(app.game.compiled, save_to).moves] == ["slide ● 1 → 2"]


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="a folder no file can be made in: Linux's /proc")
def test_a_save_into_proc_is_said_not_shown_as_a_traceback() -> None:
    save_to = Path("/proc/frog.moves")

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("s")
        assert "not saved: cannot write /proc/frog.moves: No such file or directory" in shown(app, "#status")

    app = played("specs/frog.puz", {"n": "1"}, save_to, script)  # an exception in the game would be raised here
    assert str(app.unsaved) == "cannot write /proc/frog.moves: No such file or directory"


def test_a_click_no_move_touches_then_a_hint_keeps_the_moves_and_the_keys(tmp_path: Path) -> None:
    """Issue 43: a click on a cell no move touches emptied the list, took the keys to the
    left pane, and `h` then raised ValueError."""

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await settle(app, pilot)
        moves = list(app.shown)
        await pilot.click("#board", offset=(4, 1))  # cell 2 of ● ● ● · ○ ○ ○: no move touches it
        assert app.shown == moves and "no move touches 2" in shown(app, "#status")
        assert app.focused is app.query_one("#moves", OptionList)
        await pilot.press("h")
        await settle(app, pilot)
        assert "hint: 1  slide ● 3 → 4" in shown(app, "#status")
        await pilot.press("enter")
        assert [o.words for o in app.game.played] == ["slide ● 3 → 4"]

    played("specs/frog.puz", {}, tmp_path / "x.moves", script)


def test_restart_and_redo(tmp_path: Path) -> None:
    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("n")
        assert "at the start already" in shown(app, "#status")
        await pilot.press("1", "1", "n")
        assert app.game.played == [] and "back to the start" in shown(app, "#status")
        await pilot.press("r", "r")
        assert len(app.game.played) == 2

    played("specs/frog.puz", {"n": "1"}, tmp_path / "x.moves", script)


def test_parameters_and_levels_are_changed_in_the_game(tmp_path: Path) -> None:
    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("1", "p")
        given = app.query_one("#parameters", Input)
        assert given.has_focus and given.value == "n=1"
        given.value = "n=0"
        await pilot.press("enter")
        assert "not changed: " in shown(app, "#status") and "at least one frog" in shown(app, "#status")
        assert len(app.game.played) == 1
        await pilot.press("p")
        given.value = "n=2"
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.game.compiled.puzzle.params["n"] == 2 and app.game.played == []
        assert app.title == "Frog jump  n=2" and "the shortest solution takes 8" in shown(app, "#status")
        assert app.command == "puzint run test -p n=2"
        await pilot.press("right_square_bracket")
        assert app.game.compiled.puzzle.params["n"] == 3
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        assert app.game.compiled.puzzle.params["n"] == 1 and "not changed: " in shown(app, "#status")
        await pilot.press("1")  # the keys play the new game
        assert [o.words for o in app.game.played] == ["slide ● 1 → 2"]

    played("specs/frog.puz", {"n": "1"}, tmp_path / "x.moves", script)


def test_a_number_of_two_digits_and_a_sudoku_in_any_order(tmp_path: Path) -> None:
    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await settle(app, pilot)
        twelfth = app.shown[11]
        await pilot.press("1")
        assert app.game.played == [] and "move 1…: another digit, or Enter" in shown(app, "#status")
        await pilot.press("2")
        assert app.game.played == [] and app.query_one("#moves", OptionList).highlighted == 11
        await pilot.press("enter")
        assert app.game.played == [twelfth]
        await pilot.click("#board", offset=(25, 9))  # r9c9, the last cell: its values alone are listed
        assert app.picked == ["r9c9"] and {o.movers[0][2] for o in app.shown} == {"r9c9"}

    played("specs/sudoku.puz", {}, tmp_path / "x.moves", script)


def test_a_save_asks_before_it_overwrites_a_file_it_did_not_write(tmp_path: Path) -> None:
    save_to = tmp_path / "frog.moves"
    save_to.write_text("mine\n")

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await pilot.press("1", "s")
        assert f"{save_to} exists: s again overwrites it" in shown(app, "#status")
        await pilot.press("u", "s")
        assert save_to.read_text() == "mine\n" and "exists" in shown(app, "#status")
        await pilot.press("s")
        assert "saved 0 moves" in shown(app, "#status")
        await pilot.press("1", "s")  # its own file: saved again without asking
        assert "saved 1 move" in shown(app, "#status")

    played("specs/frog.puz", {"n": "1"}, save_to, script)


def test_a_click_on_a_board_drawn_with_its_exit_finds_its_cell(tmp_path: Path) -> None:
    """Rush Hour is drawn with its exit's arrow right of row 3: the cells stay where they were."""

    async def script(app: PlayApp, pilot: Pilot[None]) -> None:
        await settle(app, pilot)
        await pilot.click("#board", offset=(16, 1))  # r1c6: the truck B, which can only drive down
        assert [o.words for o in app.game.played] == ["drive B r1c6 → r2c6"]

    played("specs/rush_hour.puz", {}, tmp_path / "x.moves", script)
