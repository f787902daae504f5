"""A state with thousands of legal moves (a filling's counter of 3,001 values; the review's had
60,001): each state is expanded once, not once a move (minutes, where `play` showed no screen
and `q` waited); `play` lists the first LISTED and says how many it left out, on a worker
thread, the screen drawn at once and `q` or Ctrl-C ending the game while the moves are still
being listed; a replay runs under the run's limits and says how far it came."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from puzint.cli import main
from puzint.compiler import CompiledPuzzle
from puzint.play import app as play_app
from puzint.play import session
from puzint.play.app import PlayApp
from puzint.play.record import ReplayStopped, replay
from puzint.play.session import LISTED, Game, listing, options
from puzint.runner import load
from puzint.search import Limits
from textual.pilot import Pilot
from textual.widgets import Static

MANY = """puzzle "many"
fill A, B with 0..3000
rule: A * B == 2021 and A > 10
"""  # A's moves from the start: 11..3000; 2021 = 43 * 47 (and 2021 * 1)


@pytest.fixture
def many(tmp_path: Path) -> Path:
    spec = tmp_path / "many.puz"
    spec.write_text(MANY)
    return spec


def expansions(monkeypatch: pytest.MonkeyPatch, compiled: CompiledPuzzle) -> list[bytes]:
    """The states the compiled puzzle expands, from now on."""
    expanded: list[bytes] = []
    expand = compiled.expand

    def counted(state: bytes) -> Any:
        expanded.append(state)
        return expand(state)

    monkeypatch.setattr(compiled, "expand", counted)
    return expanded


def test_a_states_moves_are_put_in_words_with_one_expansion(many: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each move's words once took an expansion of the state (to find the state the move
    makes): 3,001 moves, 3,001 expansions of 3,001 moves each."""
    compiled = load(many, {})
    expanded = expansions(monkeypatch, compiled)
    offered = options(compiled, compiled.start)
    assert len(offered) == 2990 and expanded == [compiled.start]
    assert [o.words for o in offered[:2]] == ["fill A 0→11", "fill A 0→12"]
    assert offered[-1].words == "fill A 0→3000"


def test_play_lists_the_first_moves_and_counts_the_others(many: Path) -> None:
    compiled = load(many, {})
    listed = listing(compiled, compiled.start)
    assert (len(listed.options), listed.total, listed.left_out) == (LISTED, 2990, 2990 - LISTED)
    assert listed.options == options(compiled, compiled.start)[:LISTED]


def test_a_move_past_the_moves_listed_is_played_when_the_state_has_it(many: Path) -> None:
    game = Game(load(many, {}), most=5)
    past = options(game.compiled, game.compiled.start)[100]
    assert past not in game.options()
    game.play(past)
    assert game.state == past.after


def test_a_replay_stops_at_the_state_limit_and_says_how_far_it_came(many: Path) -> None:
    compiled = load(many, {})
    with pytest.raises(ReplayStopped) as stopped:
        replay(compiled, "fill A 0->43\nfill B 0->47\n", "m.moves", Limits(max_states=2000))
    assert (stopped.value.reason, stopped.value.line, stopped.value.checked) == ("state limit of 2,000 reached", 1, 0)
    assert stopped.value.explored() == "0 moves checked, 2,990 legal moves looked through"
    replayed = replay(compiled, "fill A 0->43\nfill B 0->47\n", "m.moves", Limits(max_states=5000))
    assert [m.words for m in replayed.moves] == ["fill A 0→43", "fill B 0→47"]


def test_ctrl_c_stops_a_replay_while_it_puts_moves_in_words(many: Path) -> None:
    """Ctrl-C lands wherever the replay is: here at its second poll of the limits, after the
    first NAMED_BETWEEN_POLLS moves of line 1 were put in words."""
    compiled = load(many, {})
    polls = [0]

    def ctrl_c() -> None:
        polls[0] += 1
        if polls[0] == 2:
            raise KeyboardInterrupt

    with pytest.raises(ReplayStopped) as stopped:
        replay(compiled, "# a comment\nfill A 0->43\n", "m.moves", Limits(until=ctrl_c))  # type: ignore[arg-type]
    assert (stopped.value.reason, stopped.value.line) == ("interrupted", 2)


def test_without_limits_ctrl_c_is_the_callers(many: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The API's replay has no limits: a Ctrl-C is its caller's KeyboardInterrupt, as any."""
    compiled = load(many, {})

    def ctrl_c(*args: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(session, "option", ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        replay(compiled, "fill A 0->43\n", "m.moves")


def test_the_command_line_replay_stops_at_a_limit_with_the_limit_exit_code(
    many: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = tmp_path / "m.moves"
    moves.write_text("fill A 0->43\nfill B 0->47\n")
    code = main(["run", str(many), "--replay", str(moves), "--max-states", "2000"])
    out, err = capsys.readouterr()
    assert (code, out) == (3, "")
    assert re.fullmatch(
        rf"puzint: stopped while checking the moves of {re.escape(str(moves))}, at line 1: state limit of 2,000 "
        r"reached · 0 moves checked, 2,990 legal moves looked through · \d+\.\d s\n",
        err,
    )
    code = main(["run", str(many), "--replay", str(moves), "--max-states", "2000", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 3
    assert {k: data[k] for k in ("status", "limit", "stopped_while", "replay", "line", "moves_checked", "states")} == {
        "status": "limit",
        "limit": "state limit of 2,000 reached",
        "stopped_while": "replaying",
        "replay": str(moves),
        "line": 1,
        "moves_checked": 0,
        "states": 2990,
    }
    assert main(["run", str(many), "--replay", str(moves)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("the goal is reached in 2 moves")


def shown(app: PlayApp, widget: str) -> str:
    content = app.query_one(widget, Static).render()
    return str(content.plain if hasattr(content, "plain") else content)


def test_the_screen_comes_at_once_and_q_quits_while_the_moves_are_being_listed(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listing is held until the test ends: the board is drawn without it, `q` ends the
    game, and the program does not wait for the listing's thread (which then goes on)."""
    release, finished = threading.Event(), threading.Event()
    release_anyway = threading.Timer(60, release.set)  # a game that waited for it ends, and fails below
    release_anyway.start()

    def held(*args: Any) -> Any:
        release.wait()
        finished.set()
        return listing(*args)

    monkeypatch.setattr(play_app, "listing", held)
    app = PlayApp(load(many, {}), Path("unused.moves"), "puzint run many.puz")

    async def drive() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.pause()
            assert shown(app, "#board").splitlines() == ["start", "A = 0", "B = 0"]
            assert shown(app, "#status") == "listing the moves…"
            await pilot.press("q")
        assert not app.is_running

    asyncio.run(drive())
    assert not finished.is_set()  # the game ended with the listing still under way
    release.set()
    release_anyway.cancel()


def test_ctrl_c_quits_the_game(many: Path) -> None:
    app = PlayApp(load(many, {}), Path("unused.moves"), "puzint run many.puz")

    async def drive() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.press("ctrl+c")
        assert not app.is_running

    asyncio.run(drive())


def test_a_move_chosen_before_the_moves_are_listed_is_played_once_they_are(
    many: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The listing waits until the number is pressed: `2` then names the second move listed
    (A = 12), not "there is no move 2 here"."""
    asked = threading.Event()
    waiting_for = PlayApp.moves_now

    def held(*args: Any) -> Any:
        asked.wait()
        return listing(*args)

    def ask(self: PlayApp) -> None:
        asked.set()
        waiting_for(self)

    monkeypatch.setattr(play_app, "listing", held)
    monkeypatch.setattr(PlayApp, "moves_now", ask)
    app = PlayApp(load(many, {}), Path("unused.moves"), "puzint run many.puz")

    async def drive() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.pause()
            assert shown(app, "#status") == "listing the moves…"
            await pilot.press("2", "enter")  # 2,990 moves: `2` waits for a second digit, Enter takes it
            assert [o.words for o in app.game.played] == ["fill A 0→12"]

    asyncio.run(drive())


def test_the_moves_left_out_are_said_and_a_hint_past_them_is_listed_and_played(many: Path, tmp_path: Path) -> None:
    app = PlayApp(load(many, {}), tmp_path / "many.moves", "puzint run many.puz")
    app.game.most = 5

    async def settle(pilot: Pilot[None]) -> None:
        await app.workers.wait_for_complete()
        await pilot.pause()

    async def drive() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await settle(pilot)
            assert [o.words for o in app.shown] == [f"fill A 0→{a}" for a in range(11, 16)]
            assert shown(app, "#status").splitlines()[1] == (
                "the first 5 of 2,990 moves are listed (2,985 left out; h names the next move of a shortest "
                "solution, listed or not)"
            )
            await pilot.press("h")
            await settle(pilot)
            hint = re.fullmatch(r".*\nhint: 6  (fill A 0→(43|47|2021))", shown(app, "#status"), re.S)
            assert hint is not None and [o.words for o in app.shown][-1] == hint[1]
            await pilot.press("enter")
            assert [o.words for o in app.game.played] == [hint[1]]

    asyncio.run(drive())


def test_a_hint_asked_where_the_player_no_longer_stands_is_not_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked after one move, answered after that move was undone and another made: as many
    moves, another state (a hint once matched by the number of moves, and named a move of
    the state left)."""
    frog = load("specs/frog.puz", {"n": "2"})
    second = options(frog, frog.start)[1]
    expected = Game(frog).hint(state=second.after).move
    assert expected is not None
    release = threading.Event()
    hint = Game.hint

    def held(self: Game, *args: Any) -> Any:
        release.wait()
        return hint(self, *args)

    monkeypatch.setattr(Game, "hint", held)
    app = PlayApp(frog, Path("unused.moves"), "puzint run frog")

    async def drive() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.press("1", "h", "u", "2")
            assert app.game.played == [second]
            release.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "hint" not in shown(app, "#status") and app.hinted == []
            await pilot.press("h")
            await app.workers.wait_for_complete()
            await pilot.pause()
            index = app.shown.index(expected)
            assert shown(app, "#status").endswith(f"hint: {index + 1}  {expected.words}")

    asyncio.run(drive())
