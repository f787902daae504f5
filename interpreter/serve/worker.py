"""The process the playground's work runs in (`python -m puzint.serve.worker`, started by
pool.py): loading a spec, the moves of a state, a move played, a hint, a solve, a gallery
picture, one job at a time, each under its limits (`Limits.armed`: time and memory watched by
a timer whatever runs, compiling included; states counted by the searches).

Why a process: a spec's work is CPU-bound Python that no thread can be made to stop, and the
server must keep answering meanwhile; a process stops by being killed (pool.py kills one whose
page has left, with the copies its race forked: it leads a session of its own). Compiled specs
are kept (a few, the latest used) so that a click does not compile its spec again.

Orders and answers are frames of lsp/worker.py (a length, a pickle): the worker and the server
are one program. ("ready", 0) says the imports are done; then each order ("job", number, kind,
payload) is answered by ("done", number, answer, spent) or ("failed", number, why), a solve's
progress by ("progress", number, states) frames before. `spent`: the process's memory has
passed the job's limit at its peak, which never falls, so that any later job would stop at
once: the pool ends this worker and starts another. An answer is plain data: text,
numbers, the states as bytes, the pictures as SVG text.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import IO, Any

from ..compiler import CompiledPuzzle, compile_puzzle
from ..engines import RunOptions
from ..errors import SpecError
from ..gallery import entries, picture
from ..language.elaborate import elaborate
from ..language.expressions import show
from ..language.parser import parse
from ..lsp.worker import WARM_UP, frame, read_frame
from ..play import session
from ..questions import Question, ask, judged_by_rules_alone
from ..render.html import steps_html
from ..render.svg import boards_panels, picture_title, solution_panels, standalone, state_panel
from ..runner import solve
from ..search import Limits
from ..search.limits import LimitReached, rss_mb
from ..search.result import LIMIT, SOLVED
from ..solutions import enumerate_solutions
from ..sources import read_text

KEPT = 4  # compiled specs kept, the latest used
SHOWN_MOVES = 200  # moves listed from a state (the others counted)
ALL_SHOWN = 12  # a `search all` spec's solutions drawn
PROGRESS_EVERY = 0.2  # seconds between two progress frames


class Refused(Exception):
    """A job that cannot be done as asked (a move that is not one of the state's), said to the page."""


def _judged_by_rules(compiled: CompiledPuzzle) -> None:
    """A move played on a spec with an objective: refused (`questions.judged_by_rules_alone`)."""
    why = judged_by_rules_alone(compiled, "playing")
    if why is not None:
        raise Refused(why)


class Worker:
    def __init__(self, send: Callable[[object], None]) -> None:
        self.send = send
        self.kept: OrderedDict[tuple[str, str, tuple[tuple[str, str], ...]], CompiledPuzzle] = OrderedDict()

    def run(self, number: int, kind: str, payload: dict[str, Any]) -> object:
        limits = Limits(
            max_states=payload.get("max_states"), timeout=payload.get("timeout"), max_memory_mb=payload.get("memory")
        )
        if kind == "solve":
            last = [0.0]

            def progress(states: int, at: str, engine: str) -> None:
                now = time.monotonic()
                if now - last[0] >= PROGRESS_EVERY:
                    last[0] = now
                    self.send(("progress", number, {"states": states, "at": at, "engine": engine}))

            limits.progress = progress
        try:
            with limits.armed():
                return getattr(self, f"job_{kind}")(payload, limits)
        except SpecError as exc:
            return {"error": exc.render()}
        except LimitReached as exc:
            return {"stopped": exc.reason}
        except Refused as exc:
            return {"refused": str(exc)}

    # ---- the jobs

    def job_open(self, payload: dict[str, Any], limits: Limits) -> object:
        compiled = self.compiled(payload)
        puzzle = compiled.puzzle
        return {
            "title": picture_title(puzzle),
            "params": {name: show(value) for name, value in puzzle.params.items()},  # type: ignore[arg-type]
            "start": compiled.start,
            "view": self.view(compiled, compiled.start, None, limits),
        }

    def job_view(self, payload: dict[str, Any], limits: Limits) -> object:
        compiled = self.compiled(payload)
        last = payload.get("last")
        return {"view": self.view(compiled, payload["state"], last, limits)}

    def job_play(self, payload: dict[str, Any], limits: Limits) -> object:
        compiled = self.compiled(payload)
        _judged_by_rules(compiled)
        state, index = payload["state"], payload["index"]
        moves = session.listing(compiled, state, SHOWN_MOVES, limits).options
        if not isinstance(index, int) or not 0 <= index < len(moves):
            raise Refused(f"there is no move {index} here: {len(moves)} moves are listed")
        chosen = moves[index]
        last = (state, chosen.number)
        return {
            "state": chosen.after,
            "number": chosen.number,
            "words": chosen.words,
            "view": self.view(compiled, chosen.after, last, limits),
        }

    def job_hint(self, payload: dict[str, Any], limits: Limits) -> object:
        compiled = self.compiled(payload)
        _judged_by_rules(compiled)
        state = payload["state"]
        hint = session.Game(compiled).hint(limits, state)
        if hint.move is None:
            return {"why": hint.why_not}
        moves = session.listing(compiled, state, SHOWN_MOVES, limits).options
        index = next(
            (i for i, o in enumerate(moves) if (o.number, o.after) == (hint.move.number, hint.move.after)), None
        )
        return {"index": index, "words": hint.move.words}

    def job_solve(self, payload: dict[str, Any], limits: Limits) -> object:
        compiled = self.compiled(payload)
        title = picture_title(compiled.puzzle)
        asked = ask(compiled, Question(), RunOptions())
        if asked.walk:
            every = enumerate_solutions(compiled, limits, ALL_SHOWN, keep=True, options=asked.options)
            panels = boards_panels(compiled, every.solutions)
            said = (
                f"{every.count:,} solution{'s' if every.count != 1 else ''} listed"
                if every.solutions
                else "no solution"
            )
            said += f": {every.broken.said}" if every.broken else ""
            said += f", {every.objective}" if every.objective else ""
            return self.solution(title, panels, every.status, every.limit_reason, said, every.states, every.engine)
        result = solve(compiled, asked, limits, payload["filename"]).result
        if result.status != SOLVED:
            return self.solution(title, [], result.status, result.limit_reason, "", result.states, result.engine)
        moves = len(result.path)
        said = f"{moves} move{'s' if moves != 1 else ''}" + (f", cost {result.cost}" if result.cost is not None else "")
        panels = solution_panels(compiled, result.path)
        return self.solution(title, panels, result.status, None, said, result.states, result.engine)

    def job_gallery(self, payload: dict[str, Any], limits: Limits) -> object:
        entry = next((e for e in entries() if e.name == payload["name"]), None)
        if entry is None:
            raise Refused(f"{payload['name']} is not a shipped spec")
        return {"svg": picture(entry)}

    # ---- helpers

    def compiled(self, payload: dict[str, Any]) -> CompiledPuzzle:
        """The spec compiled with its parameters (kept: a click does not compile again)."""
        params = tuple(sorted(payload.get("params", {}).items()))
        key = (payload["text"], payload["filename"], params)
        kept = self.kept.get(key)
        if kept is not None:
            self.kept.move_to_end(key)
            return kept
        source = read_text(payload["text"], payload["filename"])
        try:
            compiled = compile_puzzle(elaborate(parse(source, payload["filename"]), dict(params)))
        except SpecError as exc:
            raise exc.with_source(source, payload["filename"]) from None
        self.kept[key] = compiled
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return compiled

    def view(
        self, compiled: CompiledPuzzle, state: bytes, last: tuple[bytes, int] | None, limits: Limits
    ) -> dict[str, object]:
        """What the page shows of a state: its picture (the last move's cells marked), its
        moves in reading order (their words, and the pieces that move: the page plays one by a
        click on its cells), the moves a rule forbids, and whether the goal is reached."""
        label = compiled.label(last[1], last[0], state) if last is not None else None
        listed = session.listing(compiled, state, SHOWN_MOVES, limits)
        return {
            "svg": standalone(state_panel(compiled, state, label, "")),
            "moves": [
                {"words": o.words, "movers": [list(m) for m in o.movers], "at": o.at, "cost": _shown(o.cost)}
                for o in listed.options
            ],
            "left_out": listed.left_out,
            "forbidden": [
                f"{r.words}: {r.rule} (line {r.line}, at {r.where})" for r in session.refusals(compiled, state)
            ],
            "solved": compiled.is_goal(state),
        }

    def solution(
        self, title: str, panels: list[Any], status: str, why: str | None, said: str, states: int, engine: str
    ) -> dict[str, object]:
        stopped = status == LIMIT
        return {
            "status": status,
            "said": said if status == SOLVED else (f"stopped: {why}" if stopped else said or "no solution"),
            "steps": [standalone(panel) for panel in panels],
            "page": steps_html(title, panels) if panels else "",
            "states": states,
            "engine": engine,
        }


def _shown(cost: object) -> str | None:
    return None if cost is None else str(cost)


def main() -> None:
    orders: IO[bytes] = sys.stdin.buffer
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever is printed must not fall into the answers

    def send(message: object) -> None:
        try:
            out.write(frame(message))
            out.flush()
        except (OSError, ValueError):  # the server has gone
            os._exit(0)

    worker = Worker(send)
    with contextlib.suppress(Exception):  # warm: the parser's tables, the compiler's first use
        worker.compiled({"text": WARM_UP, "filename": "warm-up.puz"})
    send(("ready", 0))
    while True:
        order = read_frame(orders)
        if order is None:
            os._exit(0)  # the server has gone
        _, number, kind, payload = order
        try:
            answer = worker.run(number, kind, payload)
            memory = payload.get("memory")
            send(("done", number, answer, memory is not None and rss_mb() > memory))
        except Exception as exc:  # a bug: said to the page as one, never a traceback
            send(("failed", number, f"{type(exc).__name__}: {exc}"))


if __name__ == "__main__":
    try:
        main()
    except BaseException:  # nothing of a worker's end is for the user to read
        os._exit(1)
