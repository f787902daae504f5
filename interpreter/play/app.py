"""`puzint play SPEC`: the puzzle in the terminal, played by hand (textual).

The board is drawn as `puzint run` draws it, the last move marked; the legal moves are a list
(arrow keys and Enter, a click, or the move's number), and a click on the board picks them too:
a click on a cell (or a place) keeps the moves that touch it, a second click the moves between
the two, and where one move is left it is played (Escape lets go); `u` undoes, `r` redoes, `h` asks the
engine for the next move of a shortest solution from here, `f` shows the moves a safety rule
forbids and which rule, `s` saves the moves played as a solution file that `puzint run
--replay` checks, `q` quits. Reaching the goal says in how many moves, against the shortest.

Textual was chosen over a key loop of our own: it gives a list that takes keys and clicks, a
layout that follows the terminal's size, workers that keep the screen alive while the engine
searches, and a pilot that drives real key presses in tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, cast

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option as ListedOption
from textual.worker import Worker, WorkerState

from ..compiler import CompiledPuzzle
from ..escapes import visible
from ..files import CannotWrite
from ..render import data, text
from ..render.glyphs import UNICODE
from ..search import Limits
from .record import write_solution
from .session import Game, Hint, Option, shortest_from

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
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "undo", "undo"),
        Binding("r", "redo", "redo"),
        Binding("h", "hint", "hint"),
        Binding("f", "forbidden", "forbidden moves"),
        Binding("s", "save", "save"),
        Binding("q", "quit", "quit"),
        Binding("escape", "let_go", "let go", show=False),
        *(Binding(str(n), f"number({n})", show=False) for n in range(1, 10)),
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

    # ---- layout
    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal():
            with VerticalScroll(id="left"):
                yield Static(id="board")
                yield Static(id="status")
            with VerticalScroll(id="side"):
                yield OptionList(id="moves")
                yield Static(id="forbidden")
        yield Footer()

    def on_mount(self) -> None:
        puzzle = self.game.compiled.puzzle
        params = " ".join(f"{k}={data._plain(v)}" for k, v in puzzle.shown_params.items())
        self.title = f"{puzzle.title}  {params}".rstrip()
        self.sub_title = puzzle.about
        self.run_worker(self._shortest_from_start, thread=True, group="shortest", exit_on_error=False)
        self.refresh_game()
        self.query_one("#moves", OptionList).focus()

    # ---- drawing
    def refresh_game(self) -> None:
        game = self.game
        compiled, state = game.compiled, game.state
        last = game.played[-1] if game.played else None
        label = compiled.label(last.number, self._before_last()) if last is not None else None
        caption = Text("start" if last is None else f"move {len(game.played)}: ", style="bold")
        if last is not None:
            caption.append(last.words)
        block = text.state_block(compiled, caption, state, label, UNICODE)
        self.query_one("#board", Static).update(Text("\n").join(block))
        self.shown = [option for option in game.options() if all(_touches(option, name) for name in self.picked)]
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options(
            ListedOption(Text.assemble((f"{n:>2} ", "dim"), option.words)) for n, option in enumerate(self.shown, 1)
        )
        if self.shown:
            moves.highlighted = 0
        self.query_one("#forbidden", Static).update(self._forbidden_text())
        self.query_one("#status", Static).update(self._status_text())

    def _before_last(self) -> bytes:
        played = self.game.played
        return played[-2].after if len(played) > 1 else self.game.compiled.start

    def _forbidden_text(self) -> Text:
        if not self.show_forbidden:
            return Text()
        refused = self.game.refusals()
        if not refused:
            return Text("no move is forbidden here", style="dim")
        out = Text("forbidden here:\n", style="bold")
        for refusal in refused:
            where = f" at {refusal.where}" if refusal.where != "the state" else ""
            out.append(f"{UNICODE.forbidden} {refusal.words}", style="bold")
            out.append(f": {refusal.rule} (line {refusal.line}){where}\n")
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
        elif not self.shown:
            line = Text(f"No move can be made after {played} moves: u undoes", style="bold yellow")
        else:
            line = Text(f"{played} move{'s' if played != 1 else ''} played")
            if self.shortest is not None:
                line.append(f" · the shortest solution takes {self.shortest}", style="dim")
        if self.message:
            line.append("\n").append(self.message)
        return line

    # ---- actions
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._play(event.option_index)

    def action_number(self, number: int) -> None:
        if number <= len(self.shown):
            self._play(number - 1)
        else:
            self._say(f"there is no move {number} here")

    def _play(self, index: int) -> None:
        self.game.play(self.shown[index])
        self.message = ""
        self.picked = []
        self.refresh_game()

    def on_click(self, event: events.Click) -> None:
        """A click on the board: its cell or place picked (see the module's docstring)."""
        board = self.query_one("#board", Static)
        offset = event.get_content_offset(board)
        name = _clicked(self.game.compiled, self.game.state, offset.x, offset.y) if offset is not None else None
        if name is None:
            return
        self.picked = [*self.picked[-1:], name]
        touching = [o for o in self.game.options() if all(_touches(o, picked) for picked in self.picked)]
        if len(touching) == 1:
            self.game.play(touching[0])
            self.picked, self.message = [], ""
        elif not touching:
            self.picked = [name]
            self.message = f"no move touches {name}" if not self._any(name) else ""
        else:
            self.message = "picked " + " and ".join(self.picked) + ": Escape lets go"
        self.refresh_game()

    def _any(self, name: str) -> bool:
        return any(_touches(option, name) for option in self.game.options())

    def action_let_go(self) -> None:
        self.picked = []
        self._say("")

    def action_undo(self) -> None:
        self._say("" if self.game.undo() else "nothing to undo")

    def action_redo(self) -> None:
        self._say("" if self.game.redo() else "nothing to redo")

    def action_forbidden(self) -> None:
        self.show_forbidden = not self.show_forbidden
        self._say("")

    def action_hint(self) -> None:
        if self.game.solved:
            self._say("the goal is reached")
            return
        self._say("thinking…")
        self.run_worker(self._hint, thread=True, group="hint", exclusive=True, exit_on_error=False)

    def action_save(self) -> None:
        """The moves saved; a save that fails is said here (and, if no later save succeeds,
        when the game ends: see `unsaved`), the game going on."""
        check_it = f"{self.command} --replay {self.save_to}"
        try:
            write_solution(self.save_to, self.game.compiled, self.game.played, check_it)
        except CannotWrite as exc:
            self.unsaved = exc
            self._say(f"not saved: {visible(str(exc))}")
            return
        self.unsaved = None
        count = len(self.game.played)
        self._say(f"saved {count} move{'s' if count != 1 else ''} to {visible(str(self.save_to))}")

    def _say(self, message: str) -> None:
        self.message = message
        self.refresh_game()

    # ---- the engine, in threads (the screen stays alive)
    def _hint(self) -> tuple[int, Hint]:
        at = len(self.game.played)
        return at, self.game.hint(Limits(timeout=HINT_SECONDS))

    def _shortest_from_start(self) -> int | None:
        result = shortest_from(self.game.compiled, self.game.compiled.start, Limits(timeout=HINT_SECONDS))
        return result.length

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if event.state == WorkerState.ERROR:
            self._say(f"the engine failed: {worker.error}")
            return
        if event.state != WorkerState.SUCCESS:
            return
        if worker.group == "shortest":
            self.shortest = worker.result
            self.refresh_game()
        elif worker.group == "hint":
            at, hint = cast("tuple[int, Hint]", worker.result)
            if at != len(self.game.played):
                return  # the player moved on meanwhile
            if hint.move is None:
                self._say(f"no hint: {hint.why_not}")
                return
            index = self.shown.index(hint.move)
            self._say(f"hint: {index + 1}  {hint.move.words}")
            self.query_one("#moves", OptionList).highlighted = index


def _touches(option: Option, name: str) -> bool:
    """Whether a move moves a piece from or to the cell or place `name` (or is made there)."""
    return option.at == name or any(name in (source, target) for _, source, target in option.movers)


def _clicked(compiled: CompiledPuzzle, state: bytes, x: int, y: int) -> str | None:
    """The cell or place drawn at (x, y) of the board's drawing (`text.state_block`: a caption
    line, the board's rows of slots, then a line for each place)."""
    puzzle = compiled.puzzle
    board = puzzle.board
    line = y - 1  # under the caption
    rows = 0
    if board is not None:
        rows = board.rows if board.has_frame else 1
        if 0 <= line < rows:
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
