"""The playground's routes (Starlette): the page and its files, the catalogue and the gallery
as pages, and the JSON the page asks for.

Every spec's work is a job of a worker (pool.py: `quick` for loading and playing, `searches`
for hints, solves and the gallery, each bounded), or an analysis of the language server's
workers (lsp/pool.py): nothing from a spec runs in the server's own process, and nothing of
a spec is ever evaluated as code. A request whose page leaves (the connection closes) stops
its job: `_until_gone` races the job against the request's disconnect, and a solve's stream
is cancelled by Starlette when its reader goes.

A game is kept here, not in a worker: the states from the start (each with the move that led
to it) and those undone, as the worker made them; the page names a move by its place in the
list it was shown, and never sends a state.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from xml.sax.saxutils import escape

from lsprotocol import types
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..catalogue import catalogue_dir, shipped_names
from ..errors import SpecError
from ..escapes import visible
from ..files import CannotWrite
from ..lsp.analysis import Analysis
from ..lsp.answers import completions, hover, keyword_hover, lookup
from ..lsp.context import context_at, in_comment_or_text
from ..lsp.pool import AnalysisFailed, Workers
from ..lsp.positions import Positions
from ..sources import read_source
from . import MAX_MEMORY_MB, MAX_STATES, TIME_LIMIT
from .guard import MAX_BODY, Guard
from .named import Named, NotNamed
from .pool import Busy, JobFailed, Pool

STATIC = Path(__file__).parent / "static"
MAX_GAMES = 200  # games kept (the latest played): one past them forgets the oldest
KEPT_ANALYSES = 16  # the latest texts' analyses, for hover and completion
MOST_COMPLETIONS = 60
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
T = TypeVar("T")


class Gone(Exception):
    """The request's connection closed before its answer: its job was stopped."""


@dataclass(frozen=True)
class Settings:
    """The limits of every job (the command line's --time-limit, --max-states, --max-memory,
    --jobs) and what it named."""

    named: Named = field(default_factory=Named)
    time_limit: float = TIME_LIMIT  # seconds a hint or a solve may take
    quick_limit: float = 10.0  # seconds loading a spec, or listing a state's moves, may take
    max_states: int = MAX_STATES
    max_memory_mb: float = MAX_MEMORY_MB
    jobs: int = 2  # searches at once (and as many loads or moves)
    waiting: int = 64  # searches (and loads or moves) waiting for one of those; one more is refused
    check_limit: float = 5.0  # seconds an analysis may take (the language server's default)


@dataclass
class Game:
    text: str
    filename: str
    params: dict[str, str]
    history: list[tuple[bytes, int | None]]  # each state from the start, with the move that made it
    undone: list[tuple[bytes, int]] = field(default_factory=list)

    @property
    def payload(self) -> dict[str, Any]:
        return {"text": self.text, "filename": self.filename, "params": self.params}

    @property
    def last(self) -> tuple[bytes, int] | None:
        """The state before this one and the move from it (its cells are marked)."""
        _, number = self.history[-1]
        return (self.history[-2][0], number) if number is not None and len(self.history) > 1 else None


class Playground:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.quick = Pool(settings.jobs, settings.waiting)
        self.searches = Pool(settings.jobs, settings.waiting)
        self.checks = Workers(settings.check_limit, settings.jobs)
        self.games: OrderedDict[str, Game] = OrderedDict()
        self.pictures: dict[str, str] = {}  # the gallery's, drawn once
        self.analyses: OrderedDict[str, Analysis] = OrderedDict()  # by text: the names hover and completion show
        self.numbers = itertools.count(1)

    def limits(self, seconds: float) -> dict[str, Any]:
        s = self.settings
        return {"timeout": seconds, "max_states": s.max_states, "memory": s.max_memory_mb}

    async def close(self) -> None:
        await self.quick.close()
        await self.searches.close()
        await self.checks.close()

    # ---- pages

    async def index(self, request: Request) -> Response:
        return _page((STATIC / "index.html").read_text(encoding="utf-8"))

    async def catalogue(self, request: Request) -> Response:
        from ..language.elaborate import elaborate
        from ..language.parser import parse

        folder = catalogue_dir()
        rows = []
        for name in shipped_names():
            assert folder is not None
            try:
                puzzle = elaborate(parse(read_source(folder / f"{name}.puz"), name), {})
            except SpecError:
                continue
            params = ", ".join(f"{k}" for k in puzzle.params)
            rows.append(
                f'<tr><td><a href="/?open={escape(name)}">{escape(name)}</a></td>'
                f"<td>{escape(visible(puzzle.title))}</td><td>{escape(visible(puzzle.about or ''))}</td>"
                f"<td>{escape(params)}</td></tr>"
            )
        body = (
            "<h1>Catalogue</h1><p>The specs puzint ships: open one in the playground.</p>"
            "<table><tr><th>name</th><th>title</th><th>about</th><th>parameters</th></tr>" + "".join(rows) + "</table>"
        )
        return _page(_frame("Catalogue", body))

    async def gallery(self, request: Request) -> Response:
        items = "".join(
            f'<figure><figcaption><a href="/?open={escape(name)}">{escape(name)}</a></figcaption>'
            f'<img src="/gallery/{escape(name)}.svg" alt="a solution of {escape(name)}" loading="lazy"></figure>'
            for name in shipped_names()
        )
        body = "<h1>Gallery</h1><p>A solution of every shipped spec, drawn as it is asked for.</p>" + items
        return _page(_frame("Gallery", body))

    async def picture(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in shipped_names():
            return _plain(404, f"{name} is not a shipped spec")
        if name not in self.pictures:
            answer = await _until_gone(
                request,
                self.searches.run(
                    "gallery", {"name": name, **self.limits(self.settings.time_limit)}, self.settings.time_limit
                ),
            )
            if "svg" not in answer:
                return _plain(503, answer.get("stopped") or answer.get("error") or answer.get("refused", ""))
            self.pictures[name] = answer["svg"]
        return Response(self.pictures[name], media_type="image/svg+xml", headers={"Content-Security-Policy": CSP})

    # ---- files

    async def files(self, request: Request) -> Response:
        return JSONResponse({"named": self.settings.named.names(), "catalogue": shipped_names()})

    async def spec(self, request: Request) -> Response:
        name = request.query_params.get("name", "")
        folder = catalogue_dir()
        try:
            if name in shipped_names() and folder is not None:
                return JSONResponse({"name": name, "text": read_source(folder / f"{name}.puz"), "saved": False})
            return JSONResponse({"name": name, "text": self.settings.named.read(name), "saved": True})
        except NotNamed as exc:
            return _plain(403, str(exc))
        except SpecError as exc:
            return _plain(422, exc.render())

    async def save(self, request: Request) -> Response:
        asked = await _json(request)
        name, text = asked.get("name"), asked.get("text")
        if not isinstance(name, str) or not isinstance(text, str):
            return _plain(400, "a save names a file and gives its text")
        try:
            path = self.settings.named.write(name, text)
        except NotNamed as exc:
            return _plain(403, str(exc))
        except CannotWrite as exc:
            return _plain(409, str(exc))
        return JSONResponse({"saved": str(path)})

    # ---- the spec: its diagnostics, its game

    async def check(self, request: Request) -> Response:
        asked = await _json(request)
        text = asked.get("text")
        if not isinstance(text, str):
            return _plain(400, "a check gives the spec's text")
        filename = self.settings.named.level_folder(str(asked.get("origin", "")), text)
        try:
            analysis = await _until_gone(request, self.checks.analyse(text, filename, lambda _: None))
        except AnalysisFailed as exc:
            return _plain(503, str(exc))
        self.analyses[text] = analysis
        self.analyses[_page_key(asked)] = analysis  # the page's latest, for a text typed since
        while len(self.analyses) > KEPT_ANALYSES:
            self.analyses.popitem(last=False)
        return JSONResponse(diagnostics(text, analysis, self.settings.check_limit))

    async def hover(self, request: Request) -> Response:
        """What the word at the cursor is, as the language server says it on hover: a name's
        declaration as written and what it declares, a word of the language's meaning. Read
        from the text's latest analysis (none yet: the words of the language alone)."""
        asked = await _json(request)
        at = _cursor(asked)
        if at is None:
            return _plain(400, "a hover gives the spec's text and a line and a character in it")
        text, position = at
        analysis = self.analyses.get(text, Analysis(()))
        positions = Positions(text, "utf-16")
        found = lookup(analysis, positions, position)
        answer = (
            keyword_hover(positions, position) if found is None else hover(found, analysis, positions, position.line)
        )
        shown = (
            answer.contents.value if answer is not None and isinstance(answer.contents, types.MarkupContent) else None
        )
        return JSONResponse({"hover": shown})

    async def complete(self, request: Request) -> Response:
        """What may be written at the cursor, as the language server completes it (the grammar's
        words there, the names that fit), the names from the text's latest analysis."""
        asked = await _json(request)
        at = _cursor(asked)
        if at is None:
            return _plain(400, "a completion gives the spec's text and a line and a character in it")
        text, position = at
        positions = Positions(text, "utf-16")
        index, column = position.line, positions.column_at(position)
        if in_comment_or_text(positions.line(index), column):
            return JSONResponse({"items": []})
        found = completions(self._analysis(text, asked), context_at(positions, index, column))
        items = sorted(found.items, key=lambda item: item.sort_text or item.label)[:MOST_COMPLETIONS]
        return JSONResponse({"items": [{"label": item.label, "detail": item.detail or ""} for item in items]})

    def _analysis(self, text: str, asked: dict[str, Any]) -> Analysis:
        """The text's analysis, or the page's latest (the names change little as a line is
        typed), or none yet."""
        return self.analyses.get(text) or self.analyses.get(_page_key(asked)) or Analysis(())

    async def new_game(self, request: Request) -> Response:
        asked = await _json(request)
        text, params = asked.get("text"), asked.get("params", {})
        if (
            not isinstance(text, str)
            or not isinstance(params, dict)
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in params.items())
        ):
            return _plain(400, "a game gives the spec's text and its parameters as text")
        game = Game(text, self.settings.named.level_folder(str(asked.get("origin", "")), text), params, [])
        answer = await self._quick(request, "open", game.payload)
        if "view" not in answer:
            return JSONResponse(answer)
        game.history.append((answer["start"], None))
        key = f"{next(self.numbers)}-{secrets.token_hex(8)}"
        self.games[key] = game
        while len(self.games) > MAX_GAMES:
            self.games.popitem(last=False)
        return JSONResponse(
            {
                "game": key,
                "title": answer["title"],
                "params": answer["params"],
                **self._shown(game, answer["view"]),
            }
        )

    async def act(self, request: Request) -> Response:
        game = self.games.get(request.path_params["game"])
        if game is None:
            return _plain(404, "this game is over (the server restarted, or it was the oldest of many)")
        self.games.move_to_end(request.path_params["game"])
        action = request.path_params["action"]
        asked = await _json(request)
        state = game.history[-1][0]
        if action == "play":
            answer = await self._quick(request, "play", {**game.payload, "state": state, "index": asked.get("index")})
            if "view" not in answer:
                return JSONResponse(answer)
            game.history.append((answer["state"], answer["number"]))
            game.undone.clear()
            return JSONResponse({"played": answer["words"], **self._shown(game, answer["view"])})
        if action == "hint":
            payload = {**game.payload, "state": state, **self.limits(self.settings.time_limit)}
            answer = await _until_gone(request, self.searches.run("hint", payload, self.settings.time_limit))
            return JSONResponse(answer)
        if action == "undo" and len(game.history) > 1:
            undone_state, number = game.history.pop()
            assert number is not None
            game.undone.append((undone_state, number))
        elif action == "redo" and game.undone:
            game.history.append(game.undone.pop())
        elif action == "restart":
            game.undone = [(s, n) for s, n in reversed(game.history[1:]) if n is not None] + game.undone
            del game.history[1:]
        elif action not in ("undo", "redo", "view"):
            return _plain(404, f"a game has no action {action!r}")
        answer = await self._quick(request, "view", {**game.payload, "state": game.history[-1][0], "last": game.last})
        if "view" not in answer:
            return JSONResponse(answer)
        return JSONResponse(self._shown(game, answer["view"]))

    async def solve(self, request: Request) -> Response:
        """A stream of lines of JSON: the progress as it comes, then the answer. The page
        leaving (the stream's reader) cancels it, and so the worker."""
        game = self.games.get(request.path_params["game"])
        if game is None:
            return _plain(404, "this game is over (the server restarted, or it was the oldest of many)")
        limit = self.settings.time_limit
        payload = {**game.payload, **self.limits(limit)}

        async def lines() -> AsyncIterator[str]:
            progress: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            job = asyncio.ensure_future(self.searches.run("solve", payload, limit, progress.put_nowait))
            try:
                while not job.done():
                    waiting = asyncio.ensure_future(progress.get())
                    await asyncio.wait({job, waiting}, return_when=asyncio.FIRST_COMPLETED)
                    if waiting.done():
                        yield json.dumps({"progress": waiting.result()}) + "\n"
                    else:
                        waiting.cancel()
                try:
                    yield json.dumps({"answer": job.result()}) + "\n"
                except (JobFailed, Busy) as exc:
                    yield json.dumps({"answer": {"failed": str(exc)}}) + "\n"
            finally:
                job.cancel()

        return StreamingResponse(lines(), media_type="application/x-ndjson")

    async def _quick(self, request: Request, kind: str, payload: dict[str, Any]) -> Any:
        limit = self.settings.quick_limit
        return await _until_gone(request, self.quick.run(kind, {**payload, **self.limits(limit)}, limit))

    def _shown(self, game: Game, view: dict[str, Any]) -> dict[str, Any]:
        return {**view, "played": len(game.history) - 1, "undone": len(game.undone)}


def diagnostics(text: str, analysis: Analysis, limit: float) -> dict[str, Any]:
    """The analysis's problems at the places the language server gives them (0-based lines,
    columns in UTF-16 code units, as the page's text counts them)."""
    positions = Positions(text, "utf-16")
    found = []
    for problem in analysis.problems:
        where = positions.range_of(problem.pos)
        message = visible(problem.message) + (f"\nexpected {visible(problem.expected)}" if problem.expected else "")
        found.append(
            {
                "line": where.start.line,
                "character": where.start.character,
                "end_line": where.end.line,
                "end_character": where.end.character,
                "message": message,
            }
        )
    stopped = (
        f"checking stopped at its time limit of {limit:g} s, while {analysis.stopped}" if analysis.stopped else None
    )
    return {"problems": found, "stopped": stopped, "params": analysis.defaults}


async def _until_gone(request: Request, job: Awaitable[T]) -> T:
    """The job's answer, or, where the request's connection closes first, the job cancelled
    (its worker killed) and the request given up."""
    task = asyncio.ensure_future(job)

    async def gone() -> None:
        while True:
            message = await request.receive()
            if message["type"] == "http.disconnect":
                return

    watcher = asyncio.ensure_future(gone())
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watcher.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
    if not task.done() or task.cancelled():
        raise Gone
    return task.result()


def _page_key(asked: dict[str, Any]) -> str:
    """Where a page's latest analysis is kept: its own random name (a text never starts so)."""
    page = asked.get("page")
    return "\0page " + (page[:64] if isinstance(page, str) else "")


def _cursor(asked: dict[str, Any]) -> tuple[str, types.Position] | None:
    text, line, character = asked.get("text"), asked.get("line"), asked.get("character")
    if not isinstance(text, str) or not isinstance(line, int) or not isinstance(character, int):
        return None
    if line < 0 or character < 0:
        return None
    return text, types.Position(line=line, character=character)


async def _json(request: Request) -> dict[str, Any]:
    body = await request.body()
    if not body:
        return {}
    try:
        asked = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return {}
    return asked if isinstance(asked, dict) else {}


def _plain(status: int, text: str) -> Response:
    return Response(text + "\n", status_code=status, media_type="text/plain; charset=utf-8")


def _page(html: str) -> Response:
    return HTMLResponse(html, headers={"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff"})


def _frame(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)} · puzint</title>"
        '<link rel="stylesheet" href="/static/style.css"></head><body class="page">'
        '<nav><a href="/">Playground</a> <a href="/catalogue">Catalogue</a> <a href="/gallery">Gallery</a></nav>'
        f"<main>{body}</main></body></html>"
    )


async def _failures(request: Request, exc: Exception) -> Response:
    """A job that failed or could not start: said in a line, never a traceback."""
    if isinstance(exc, Busy):
        return _plain(503, str(exc))
    if isinstance(exc, Gone):
        return _plain(499, "the page left")
    return _plain(500, f"puzint: {visible(str(exc))}")


def make_app(settings: Settings, hosts: set[str]) -> Guard:
    """The application, behind its guard: `hosts` are the Host headers it answers to."""
    playground = Playground(settings)
    routes = [
        Route("/", playground.index),
        Route("/catalogue", playground.catalogue),
        Route("/gallery", playground.gallery),
        Route("/gallery/{name}.svg", playground.picture),
        Route("/api/files", playground.files),
        Route("/api/spec", playground.spec),
        Route("/api/save", playground.save, methods=["POST"]),
        Route("/api/check", playground.check, methods=["POST"]),
        Route("/api/hover", playground.hover, methods=["POST"]),
        Route("/api/complete", playground.complete, methods=["POST"]),
        Route("/api/game", playground.new_game, methods=["POST"]),
        Route("/api/game/{game}/solve", playground.solve, methods=["POST"]),
        Route("/api/game/{game}/{action}", playground.act, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await playground.close()

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={JobFailed: _failures, Busy: _failures, Gone: _failures},
    )
    app.state.playground = playground
    return Guard(app, hosts, MAX_BODY)
