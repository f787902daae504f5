"""`puzint play SPEC`: the puzzle in the terminal, played by hand (textual).

The board is drawn as `puzint run` draws it, the last move marked; the legal moves are a list
(arrow keys and Enter, a click, or the move's number), and a click on the board picks them too:
a click on a cell (or a place) keeps the moves that touch it, a second click the moves between
the two, and where one move is left it is played (Escape lets go; a cell no move touches changes
nothing); a number of several digits waits for its next digit where one may follow; `u`
undoes, `r` redoes, `n` goes back to the start, `p` asks for parameters and `]`/`[` step the
level (a new game), `h` asks the engine for the next move of a shortest solution from here,
`f` shows the moves a safety rule forbids and which rule, `s` saves the moves played as a
solution file that `puzint run --replay` checks (asking before it overwrites a file it did
not write), `q` quits. Reaching the goal says in how many moves, against the shortest. What
the game does is `session.py`'s (a web page plays through it too): this module draws and
dispatches.

Textual was chosen over a key loop of our own: it gives a list that takes keys and clicks, a
layout that follows the terminal's size, workers that keep the screen alive while the engine
searches, and a pilot that drives real key presses in tests.

What may take long runs on a worker thread, never on the screen's: the moves of a state are
listed there (a filling of two counters of 60,001 values has 60,001 moves from its start: the
first LISTED are put in words, the others counted and said), as are the engine's searches.
The screen is drawn at once, and `q` (or Ctrl-C) ends the game at any time: the threads are
told to stop, and the program does not wait for them (`Apart`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import Option as ListedOption
from textual.worker import Worker, WorkerState, get_current_worker

from ..compiler import CompiledPuzzle
from ..errors import SpecError
from ..escapes import visible
from ..files import CannotWrite
from ..render import data, text
from ..render.glyphs import UNICODE
from ..render.targets import exits
from ..search import Limits
from ..search.limits import LimitReached
from .record import write_solution
from .session import (
    LISTED,
    CannotReload,
    Game,
    Hint,
    Listing,
    Option,
    Refusal,
    kept,
    listing,
    parameters,
    pick,
    refusals,
    reloaded,
    shortest_from,
    stepped,
    touches,
)

HINT_SECONDS = 30.0  # a hint that takes longer than this is given up, and says so


class PlayApp(App[None]):
    """One game of one puzzle."""

    CSS = """
    #left { width: 1fr; padding: 0 1; }
    #board { width: auto; margin-bottom: 1; }
    #status { width: 1fr; }
    #side { width: 1fr; }
    #moves { height: auto; max-height: 2fr; }
    #forbidden { height: auto; color: $warning; }
    #parameters { dock: bottom; display: none; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "undo", "undo"),
        Binding("r", "redo", "redo"),
        Binding("h", "hint", "hint"),
        Binding("f", "forbidden", "forbidden moves"),
        Binding("s", "save", "save"),
        Binding("n", "restart", "restart"),
        Binding("p", "parameters", "parameters"),
        Binding("right_square_bracket", "level(1)", "next level"),
        Binding("left_square_bracket", "level(-1)", "previous level", show=False),
        Binding("q", "quit", "quit"),
        Binding("ctrl+c", "quit", show=False, priority=True),  # as in any program run in a terminal
        Binding("escape", "let_go", "let go", show=False),
        *(Binding(str(n), f"number({n})", show=False) for n in range(10)),
    ]

    def __init__(self, compiled: CompiledPuzzle, save_to: Path, command: str):
        super().__init__()
        self.game = Game(compiled)
        self.save_to = save_to
        self.command = command
        self.shown: list[Option] = []
        self.show_forbidden = False
        self.shortest: int | None = None  # moves of a shortest solution from the start, once known
        self.message = ""
        self.picked: list[str] = []  # the cells or places clicked: the moves listed touch them all
        self.unsaved: CannotWrite | None = None  # why the last save failed, if no save succeeded after it
        self.moves_job: Listed | None = None  # the moves of the last state asked for: being listed, or listed
        self.unlisted = ""  # why the moves of `moves_job`'s state could not be listed
        self.hinted: list[Option] = []  # a hint's move from here, where the moves listed stop short of it
        self.refused: tuple[bytes, list[Refusal]] | None = None  # the moves forbidden from a state, once known
        self.hint_for: bytes | None = None  # the state a hint is being searched from
        self.hint_worker: Worker[tuple[bytes, Hint]] | None = None  # the search of it
        self.typed = ""  # the digits of a move's number typed so far, where more may follow
        self.saved_to: Path | None = None  # the file this game saved to (saved again without asking)
        self.overwrite_asked = False  # `s` said the file exists: `s` again overwrites it

    # ---- layout
    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal():
            with VerticalScroll(id="left", can_focus=False):
                yield Static(id="board")
                yield Static(id="status")
            with VerticalScroll(id="side", can_focus=False):
                yield MoveList(id="moves")
                yield Static(id="forbidden")
        yield Input(id="parameters", placeholder="NAME=VALUE ...: Enter plays with them, Escape keeps these")
        yield Footer()

    def on_mount(self) -> None:
        asyncio.get_running_loop().set_default_executor(Apart())
        self._begin()

    def _begin(self) -> None:
        """The game's title, the search of its shortest solution, its board and moves."""
        puzzle = self.game.compiled.puzzle
        params = " ".join(f"{k}={data._plain(v)}" for k, v in puzzle.shown_params.items())
        self.title = f"{puzzle.title}  {params}".rstrip()
        self.sub_title = puzzle.about
        self.run_worker(
            _stopped_with_the_game(self._shortest_from_start), thread=True, group="shortest", exit_on_error=False
        )
        self.refresh_game()
        self.query_one("#moves", OptionList).focus()

    # ---- drawing
    def refresh_game(self) -> None:
        game = self.game
        compiled, state = game.compiled, game.state
        last = game.played[-1] if game.played else None
        label = compiled.label(last.number, self._before_last(), state) if last is not None else None
        caption = Text("start" if last is None else f"move {len(game.played)}: ", style="bold")
        if last is not None:
            caption.append(last.words)
        block = text.state_block(compiled, caption, state, label, UNICODE)
        self.query_one("#board", Static).update(Text("\n").join(block))
        self.shown = kept(self._listed(), self.picked)
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options(
            ListedOption(Text.assemble((f"{n:>2} ", "dim"), option.words)) for n, option in enumerate(self.shown, 1)
        )
        if self.shown:
            typed = int(self.typed) if self.typed else 0
            moves.highlighted = typed - 1 if 1 <= typed <= len(self.shown) else 0
            if not self.query_one("#parameters", Input).display:
                moves.focus()  # the keys always play: a click on the board leaves them with the list
        self.query_one("#forbidden", Static).update(self._forbidden_text())
        self.query_one("#status", Static).update(self._status_text())

    def _listed(self) -> list[Option]:
        """The moves listed from here (and a hint's move past them); none while they are
        being listed, on a worker thread started here for the state where the player stands."""
        state = self.game.state
        listed = self.game.listed()
        if listed is None:
            if self.moves_job is None or self.moves_job.state != state:
                job = self.moves_job = Listed(state)
                self.unlisted = ""
                self.run_worker(
                    lambda: self._list_moves(job),
                    thread=True,
                    group="moves",
                    exclusive=True,  # the moves of a state the player has left are not listed on
                    exit_on_error=False,
                )
            return []
        return listed.options + [option for option in self.hinted if option not in listed.options]

    def moves_now(self) -> None:
        """The moves from here, waited for if they are being listed: a move chosen by its
        number or by Enter as soon as the board is drawn (typed ahead, or by a test's pilot)
        is the move that number names once they are listed, never "no move 2 here"."""
        job = self.moves_job
        if self.game.listed() is None and job is not None and job.state == self.game.state:
            job.done.wait()
            self._take(job)

    def _take(self, job: Listed) -> None:
        """The moves listed on a worker thread, kept and shown (if the player is still there)."""
        if job is not self.moves_job or job.state != self.game.state or self.game.listed() is not None:
            return
        if isinstance(job.result, Listing):
            self.game.remember(job.state, job.result)
            if job.refused is not None:
                self.refused = job.state, job.refused
        else:
            self.unlisted = job.result or "the moves could not be listed"
        self.refresh_game()
        if self.shown:
            self.query_one("#moves", OptionList).focus()

    def _before_last(self) -> bytes:
        played = self.game.played
        return played[-2].after if len(played) > 1 else self.game.compiled.start

    def _forbidden_text(self) -> Text:
        """The moves a safety rule forbids here, once known (found by `f`, or with the moves
        listed on their worker thread while `f` is on), the first LISTED of them."""
        if not self.show_forbidden:
            return Text()
        known = self.refused
        if known is None or known[0] != self.game.state:
            return Text("listing the forbidden moves…", style="dim")
        refused = known[1]
        if not refused:
            return Text("no move is forbidden here", style="dim")
        out = Text("forbidden here:\n", style="bold")
        for refusal in refused[:LISTED]:
            where = f" at {refusal.where}" if refusal.where != "the state" else ""
            out.append(f"{UNICODE.forbidden} {refusal.words}", style="bold")
            out.append(f": {refusal.rule} (line {refusal.line}){where}\n")
        if len(refused) > LISTED:
            out.append(f"(and {len(refused) - LISTED:,} more)\n", style="dim")
        return out

    def _status_text(self) -> Text:
        game = self.game
        played = len(game.played)
        if game.solved:
            line = Text(f"Solved in {played} move{'s' if played != 1 else ''}", style="bold green")
            if self.shortest is not None:
                line.append(
                    " · as short as can be" if played == self.shortest else f" · the shortest takes {self.shortest}"
                )
            line.append(" · s saves it")
        elif self.game.listed() is None:
            line = Text(self.unlisted or "listing the moves…", style="yellow" if self.unlisted else "dim")
        elif not self.shown and not self.picked:
            line = Text(f"No move can be made after {played} moves: u undoes", style="bold yellow")
        else:
            line = Text(f"{played} move{'s' if played != 1 else ''} played")
            if self.shortest is not None:
                line.append(f" · the shortest solution takes {self.shortest}", style="dim")
        listed = self.game.listed()
        if listed is not None and listed.left_out:
            line.append(
                f"\nthe first {len(listed.options):,} of {listed.total:,} moves are listed "
                f"({listed.left_out:,} left out; h names the next move of a shortest solution, listed or not)",
                style="dim",
            )
        if self.message:
            line.append("\n").append(self.message)
        return line

    # ---- actions
    def on_key(self, event: events.Key) -> None:
        """Any key but `s` keeps a file that `s` asked about overwriting."""
        if event.key != "s":
            self.overwrite_asked = False

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._play(event.option_index)

    def action_number(self, digit: int) -> None:
        """A digit of a move's number: the move is played as soon as no other number starts
        with the digits typed (with 12 moves, `1` waits for a second digit or Enter, and
        highlights move 1; `2` plays move 2 at once)."""
        self.moves_now()
        typed = self.typed + str(digit)
        number, count = int(typed), len(self.shown)
        self.typed = ""
        if not 1 <= number <= count:
            self._say(f"there is no move {typed.lstrip('0') or typed} here")
        elif number * 10 > count:
            self._play(number - 1)
        else:
            self._say(f"move {typed}…: another digit, or Enter")
            self.typed = typed
            self.query_one("#moves", OptionList).highlighted = number - 1

    def _play(self, index: int) -> None:
        if not 0 <= index < len(self.shown):
            return
        self.game.play(self.shown[index])
        self._moved()

    def _moved(self) -> None:
        """What a move played (or undone, or a new game) lets go: a click's choice, a hint,
        the digits typed."""
        self.message, self.picked, self.hinted, self.typed = "", [], [], ""
        self.refresh_game()

    def on_click(self, event: events.Click) -> None:
        """A click on the board: its cell or place picked (`session.pick`)."""
        board = self.query_one("#board", Static)
        offset = event.get_content_offset(board)
        name = _clicked(self.game.compiled, self.game.state, offset.x, offset.y) if offset is not None else None
        if name is None:
            return
        self.typed = ""
        if self.game.listed() is None:
            self._say("the moves are being listed: a click picks among them once they are")
            return
        picked = pick(self._listed(), self.picked, name)
        if picked.play is not None:
            self.game.play(picked.play)
            self._moved()
            return
        self.picked = picked.names
        self._say(picked.message)

    def action_let_go(self) -> None:
        self.picked, self.typed = [], ""
        self._hide_parameters()
        self._say("")

    def action_undo(self) -> None:
        undone = self.game.undo()
        self._moved()
        self._say("" if undone else "nothing to undo")

    def action_redo(self) -> None:
        redone = self.game.redo()
        self._moved()
        self._say("" if redone else "nothing to redo")

    def action_restart(self) -> None:
        """Back to the start (r plays the moves again)."""
        restarted = self.game.restart()
        self._moved()
        self._say("back to the start: r plays the moves again" if restarted else "at the start already")

    def action_parameters(self) -> None:
        """The parameters asked for in a line at the foot of the screen (see `_reload`)."""
        given = self.query_one("#parameters", Input)
        shown = self.game.compiled.puzzle.shown_params
        given.value = " ".join(f"{name}={data._plain(value)}" for name, value in shown.items())
        given.display = True
        given.focus()
        self._say("the parameters: Enter plays with them, Escape keeps these")

    def _hide_parameters(self) -> None:
        given = self.query_one("#parameters", Input)
        if given.display:
            given.display = False
            self.query_one("#moves", OptionList).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        words = event.value.split()
        wrong = [word for word in words if "=" not in word or not word.split("=", 1)[0]]
        if wrong:
            self._say(f"not a parameter: {visible(wrong[0])} (write NAME=VALUE)")
            return
        self._hide_parameters()
        self._reload(dict(word.split("=", 1) for word in words))

    def action_level(self, step: int) -> None:
        """The next (or previous) level: the spec's first whole-number parameter, one more."""
        change = stepped(self.game.compiled, step)
        if change is None:
            self._say("the spec has no whole-number parameter to step")
            return
        self._reload(change)

    def _reload(self, changes: dict[str, str]) -> None:
        """A new game of the spec with these parameters; a value the spec refuses is said,
        and the game goes on."""
        try:
            compiled = reloaded(self.game.compiled, changes)
        except SpecError as exc:
            self._say(f"not changed: {visible(_first_lines(exc.render()))}")
            return
        except (CannotReload, OSError) as exc:
            self._say(f"not changed: {visible(str(exc))}")
            return
        for worker in self.workers:
            worker.cancel()
        self.game = Game(compiled, most=self.game.most)
        self.moves_job, self.unlisted, self.refused = None, "", None
        self.hint_for, self.hint_worker, self.shortest = None, None, None
        self.saved_to, self.overwrite_asked = None, False
        head = self.command.split(" -p ", 1)[0]
        self.command = " ".join([head, *(f"-p {name}={value}" for name, value in parameters(compiled).items())])
        self._moved()
        self._begin()
        self._say("a new game: " + (self.title or ""))

    def action_forbidden(self) -> None:
        """The forbidden moves shown (found here, if not yet: asked for, as a move chosen by
        Enter is waited for) or hidden."""
        self.show_forbidden = not self.show_forbidden
        state = self.game.state
        if self.show_forbidden and (self.refused is None or self.refused[0] != state):
            self.refused = state, refusals(self.game.compiled, state)
        self._say("")

    def action_hint(self) -> None:
        """A hint asked for on a worker thread; asked again from the same state, the search
        under way is waited for (a key held down would start a search a keystroke)."""
        if self.game.solved:
            self._say("the goal is reached")
            return
        self._say("thinking…")
        state = self.game.state
        if self.hint_for == state:
            return
        self.hint_for = state
        self.hint_worker = self.run_worker(
            _stopped_with_the_game(lambda: self._hint(state)),
            thread=True,
            group="hint",
            exclusive=True,
            exit_on_error=False,
        )

    def action_save(self) -> None:
        """The moves saved; a save that fails is said here (and, if no later save succeeds,
        when the game ends: see `unsaved`), the game going on. A file that exists, and that
        this game did not write, is overwritten only at a second `s`."""
        if self.save_to != self.saved_to and self.save_to.is_file() and not self.overwrite_asked:
            self.overwrite_asked = True
            self._say(f"{visible(str(self.save_to))} exists: s again overwrites it, any other key keeps it")
            return
        self.overwrite_asked = False
        check_it = f"{self.command} --replay {self.save_to}"
        try:
            write_solution(self.save_to, self.game.compiled, self.game.played, check_it)
        except CannotWrite as exc:
            self.unsaved = exc
            self._say(f"not saved: {visible(str(exc))}")
            return
        self.unsaved, self.saved_to = None, self.save_to
        count = len(self.game.played)
        self._say(f"saved {count} move{'s' if count != 1 else ''} to {visible(str(self.save_to))}")

    def _say(self, message: str) -> None:
        self.message = message
        self.refresh_game()

    # ---- the engine, in threads (the screen stays alive)
    def _list_moves(self, job: Listed) -> Listed:
        """The moves from the job's state (the first `most`, and their number), or why they
        could not be listed: a limit, the player gone on (the worker cancelled), a failure.
        Said done whatever happens: `moves_now` may be waiting."""
        try:
            limits = _thread_limits()
            job.result = listing(self.game.compiled, job.state, self.game.most, limits)
            if self.show_forbidden:  # shown with them, found here rather than on the screen's thread
                limits.check(0, stored=False)
                job.refused = refusals(self.game.compiled, job.state)
        except LimitReached as exc:
            job.result = f"the moves could not be listed: {exc.reason}"
        except Exception as exc:
            job.result = f"the moves could not be listed: {type(exc).__name__}: {exc}"
        finally:
            job.done.set()
        return job

    def _hint(self, state: bytes) -> tuple[bytes, Hint]:
        return state, self.game.hint(_thread_limits(), state)

    def _shortest_from_start(self) -> int | None:
        result = shortest_from(self.game.compiled, self.game.compiled.start, _thread_limits())
        return result.length

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker is self.hint_worker and event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            self.hint_for = None  # asked again, it is searched again
        if event.state == WorkerState.ERROR:
            self._say(f"the engine failed: {worker.error}")
            return
        if event.state != WorkerState.SUCCESS:
            return
        if worker.group == "moves":
            self._take(cast("Listed", worker.result))
        elif worker.group == "shortest":
            self.shortest = worker.result
            self.refresh_game()
        elif worker.group == "hint":
            at, hint = cast("tuple[bytes, Hint]", worker.result)
            if at == self.hint_for:
                self.hint_for = None
            if at != self.game.state:
                return  # the player moved on meanwhile (the same number of moves is not the same state)
            if hint.move is None:
                self._say(f"no hint: {hint.why_not}")
                return
            self.hinted = [hint.move]  # listed too, where the moves listed stop short of it
            if not all(touches(hint.move, name) for name in self.picked):
                self.picked = []  # a click's choice that leaves it out is let go
            self.typed = ""
            self.refresh_game()
            if hint.move not in self.shown:  # the moves are still being listed: it comes with them
                self._say(f"hint: {hint.move.words}")
                return
            index = self.shown.index(hint.move)
            self._say(f"hint: {index + 1}  {hint.move.words}")
            self.query_one("#moves", OptionList).highlighted = index


@dataclass
class Listed:
    """The moves of a state, listed on a worker thread: done, with the listing or why there
    is none."""

    state: bytes
    done: threading.Event = field(default_factory=threading.Event)
    result: Listing | str | None = None
    refused: list[Refusal] | None = None  # the moves forbidden there, where they are shown


class MoveList(OptionList):
    """The moves listed: Enter waits for them where they are being listed (`moves_now`)."""

    def action_select(self) -> None:
        cast("PlayApp", self.app).moves_now()
        super().action_select()


def _thread_limits() -> Limits:
    """The limits of what a worker thread runs: HINT_SECONDS, and the worker cancelled (the
    player moved on, or the game ended), polled by the searches and listings that poll
    (a search raced beside other engines polls its own: the game does not wait for it)."""
    worker = get_current_worker()
    return Limits(timeout=HINT_SECONDS, until=lambda: "the game went on without it" if worker.is_cancelled else None)


def _stopped_with_the_game(work: Callable[[], Any]) -> Callable[[], Any]:
    """`work` as a worker thread runs it: a stop (a LimitReached, which textual's workers
    would let through as it is no Exception) becomes a failure the app is told of."""

    def run() -> Any:
        try:
            return work()
        except LimitReached as exc:
            raise RuntimeError(exc.reason) from None

    return run


class Apart(concurrent.futures.ThreadPoolExecutor):
    """The app's default executor, which runs textual's thread workers: each on a daemon
    thread of its own, and none waited for at the end. The executor asyncio makes would be
    waited for when the app ends (`shutdown(wait=True)`): `q` pressed during a hint's search
    would leave the terminal blank until the search gave up (30 s). The threads are told to
    stop (their workers are cancelled: `_thread_limits`); what does not stop ends with the
    program."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:
                future.set_exception(exc)

        threading.Thread(target=run, daemon=True, name="puzint-play").start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing is waited for (see the class)."""


def _first_lines(message: str, most: int = 4) -> str:
    return "\n".join(message.splitlines()[:most])


def _clicked(compiled: CompiledPuzzle, state: bytes, x: int, y: int) -> str | None:
    """The cell or place drawn at (x, y) of the board's drawing (`text.state_block`: a caption
    line, the board's rows of slots, then a line for each place)."""
    puzzle = compiled.puzzle
    board = puzzle.board
    line = y - 1  # under the caption
    rows = 0
    if board is not None:
        sides = {side for _, side in exits(puzzle)}  # an exit's line over the board, its column left of it
        line -= "up" in sides
        x -= len(UNICODE.exits[2]) + 1 if "left" in sides else 0
        rows = (board.rows if board.has_frame else 1) + ("down" in sides)
        if 0 <= line < rows - ("down" in sides):
            cols = board.cols if board.has_frame else board.size
            width = max([len(text.glyph(compiled, c, UNICODE)) for c in set(state[: compiled.cells])] + [1]) + 2
            col = x // width
            squares = board.frame if board.has_frame else tuple(range(board.size))
            if 0 <= col < cols:
                cell = squares[line * cols + col]
                return board.name(cell) if cell >= 0 else None
            return None
    place = line - rows
    if 0 <= place < len(puzzle.places):
        return puzzle.places[place].name
    return None
