"""The `puzint` command: `run` a spec, `check` specs against their expected results."""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
import textwrap
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from . import __version__, plan
from . import serve as serve_defaults
from .catalogue import catalogue_dir, resolve_spec, shipped_names
from .compiler import CompiledPuzzle
from .ctrl_c import CtrlC
from .engines import Query, RunOptions, registry
from .engines import workers as parallel
from .engines.workers import Workers
from .errors import SpecError
from .escapes import visible
from .files import CannotWrite, unwritable
from .heuristics import HEURISTICS
from .language.expressions import show
from .questions import Asked, Question, ask, command_line, judged_by_rules_alone, query_of, refusal
from .render import data, text
from .render.engine_line import engine_line, heuristic_line
from .render.glyphs import Glyphs, choose
from .render.graph import LAYERED_UP_TO, LAYOUTS
from .render.svg import picture_title
from .runner import METHODS, Solved, answer, load, positioned, solve
from .search import Limits, SearchResult
from .search.limits import DEFAULT_MAX_MEMORY_MB, DEFAULT_MAX_STATES, MEMORY_WATCHED, LimitReached
from .search.result import LIMIT, NO_SOLUTION, SOLVED
from .solutions import AllSolutions, enumerate_shortest, enumerate_solutions

if TYPE_CHECKING:
    from .checking import CaseChecked
    from .play.record import Replayed, ReplayStopped
    from .render.progress import SearchProgress

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_NO_SOLUTION = 0, 1, 2, 3, 4
GRAPH_STATES = 10_000  # `puzint graph` draws at most this many states unless told otherwise
GRAPH_EDGES = 1_000  # ... and this many edges: Graphviz takes minutes to hours on a few thousand


class UsageError(Exception):
    pass


class PipeClosed(Exception):
    """The reader of our output went away (`puzint run ... | head`): not an error."""


class Output(Console):
    """rich's console, except that a closed pipe ends the run quietly with exit 0 (rich's own
    handling exits with 1, which here means "a check failed"), and that control characters in
    what it prints are shown escaped, never sent (see render.escapes)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.push_render_hook(text.VisibleControls())

    def on_broken_pipe(self) -> None:
        self.quiet = True
        _silence_stdout()
        raise PipeClosed


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _params(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"-p takes NAME=VALUE, got '{pair}'")
        out[name.strip()] = value.strip()
    return out


def _count(what: str, example: str) -> Callable[[str], int]:
    """An option's value as a whole number of `what`, refused in the user's words."""

    def read(text: str) -> int:
        digits = text.strip().replace("_", "").replace(",", "")
        if not digits.isdigit() or not digits.isascii() or len(digits.lstrip("0")) > 18:
            raise argparse.ArgumentTypeError(f"expected a whole number of {what} such as {example}, got '{text}'")
        if int(digits) <= 0:
            raise argparse.ArgumentTypeError(f"expected at least 1 {what.rstrip('s')}, got '{text}'")
        return int(digits)

    return read


def _amount(what: str, example: str) -> Callable[[str], float]:
    """An option's value as a positive, finite number of `what` (seconds, MB)."""

    def read(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value <= 0:
            raise argparse.ArgumentTypeError(f"expected a positive number of {what} such as {example}, got '{text}'")
        return value

    return read


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="puzint", description="Solve puzzles written as .puz specs.")
    parser.add_argument("--version", action="version", version=f"puzint {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run_p = sub.add_parser("run", help="solve one spec and show the solution")
    run_p.add_argument("spec", help="a .puz file, or the name of a shipped spec (frog)")
    run_p.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help="set a parameter")
    run_p.add_argument("--count", action="store_true", help="count the distinct shortest solutions")
    run_p.add_argument(
        "--reach",
        action="store_true",
        help="explore every reachable state: how many, how far the farthest lies (depth), and one of them",
    )
    run_p.add_argument(
        "--from-goal",
        action="store_true",
        help="with --reach: explore backwards from the goal: every state that can reach it, and the hardest starts",
    )
    run_p.add_argument("--seed", type=_whole, metavar="N", help="set the spec's `seed` parameter (random goals)")
    run_p.add_argument(
        "--all",
        action="store_true",
        help="list every shortest solution (every solution for `search all` specs, where it is the default)",
    )
    run_p.add_argument("--draw", action="store_true", help="with --all: draw each solution move by move")
    run_p.add_argument(
        "--limit", type=_count("solutions", "10"), metavar="K", help="with all solutions: stop after the first K"
    )
    run_p.add_argument(
        "--distinct",
        choices=("trajectories",),
        help="group the shortest solutions: 'trajectories' = same path for every piece, moves in any order",
    )
    run_p.add_argument(
        "--explain", action="store_true", help="show, before each move, the moves a safety rule forbids and why"
    )
    run_p.add_argument(
        "--format",
        choices=("text", "json", "yaml", "svg", "html"),
        default="text",
        help="svg: the solution as a picture, a strip of boards (the amida as its ladder); "
        "html: a page that shows it move by move, with a slider",
    )
    run_p.add_argument(
        "--animate",
        action="store_true",
        help="with --format svg: one animated picture, the states shown one at a time, a second each, over and over",
    )
    run_p.add_argument(
        "--ascii", action="store_true", help="draw with ASCII only (automatic when the output cannot show ● → ·)"
    )
    run_p.add_argument("--quiet", action="store_true", help="no progress line during a long search")
    run_p.add_argument(
        "--verbose",
        action="store_true",
        help="say on stderr which engine answered (or that a limit came first), and which was tried first and why",
    )
    run_p.add_argument("--method", choices=METHODS, default="auto", help="search method for a shortest solution")
    run_p.add_argument(
        "--heuristic",
        choices=HEURISTICS,
        default="auto",
        help="what guides the search for a shortest solution: derived from the spec (pattern databases, or dead "
        "cells and a bound for pushed pieces), the spec's own, none, or (auto) the derived one with the spec's "
        "where the puzzle is large",
    )
    run_p.add_argument(
        "--patterns",
        metavar="GROUPS",
        default="",
        help="the groups of pieces the derived tables keep, by symbol: '123456,789ABC,DEF' (default: chosen)",
    )
    run_p.add_argument(
        "--replay",
        metavar="FILE",
        help="check a solution file (one move per line, as `puzint play` saves them): are the moves legal, "
        "is the goal reached, and how does it compare with the shortest",
    )
    _engine_option(run_p, explained=True)
    run_p.add_argument(
        "--workers",
        type=_workers,
        metavar="N",
        help="run the search on N worker processes at once (auto: one per core; at most "
        f"{parallel.WORKERS_PER_CORE} per core), with Dask "
        "(pip install 'puzint[parallel]'): a walk split into subtrees, or breadth-first layers shared among them",
    )
    run_p.add_argument(
        "--cluster",
        type=_cluster,
        metavar="ADDRESS",
        help="a running Dask cluster's scheduler (tcp://host:8786, or tls:// with Dask's TLS settings): "
        f"its workers run the search (it must answer within {parallel.CONNECT_SECONDS:g} s)",
    )
    _limit_options(run_p)

    check_p = sub.add_parser("check", help="check specs against the expected results beside them (SPEC.yaml)")
    check_p.add_argument("targets", nargs="*", metavar="SPEC|DIR", help="spec files or directories (default: specs)")
    check_p.add_argument(
        "--record",
        action="store_true",
        help="run one spec and write what it finds as a case of SPEC.yaml (added to the file), for you to review",
    )
    check_p.add_argument(
        "-p", "--param", action="append", default=[], metavar="NAME=VALUE", help="with --record: the case's parameters"
    )
    check_p.add_argument(
        "-j",
        "--jobs",
        type=_count("jobs", "2"),
        default=None,
        metavar="N",
        help="check N cases at once, each in its own process (default: one a core; 1: one after another here); "
        "the report is in the same order, and the limits are each case's",
    )
    _engine_option(check_p)
    _limit_options(check_p)

    gallery_p = sub.add_parser("gallery", help="draw a solution of every shipped spec into DIR/gallery.md")
    gallery_p.add_argument("dir", metavar="DIR", help="where gallery.md and gallery/ are written (docs)")

    list_p = sub.add_parser("list", help="the shipped specs: their names, what each is about, and their parameters")
    list_p.add_argument("--format", choices=("text", "json"), default="text")

    play_p = sub.add_parser("play", help="play a spec by hand in the terminal (undo, hints, save the moves)")
    play_p.add_argument("spec", help="a .puz file, or the name of a shipped spec (frog)")
    play_p.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help="set a parameter")
    play_p.add_argument(
        "--save",
        metavar="FILE",
        help="where `s` saves the moves played (default: the spec's name with .moves, here)",
    )

    sub.add_parser("lsp", help="a language server for editors (LSP on stdin/stdout)")

    serve_p = sub.add_parser(
        "serve", help="a local web playground: edit a spec, play it by clicks, solve it and step through"
    )
    serve_p.add_argument(
        "files",
        nargs="*",
        metavar="DIR|SPEC",
        help="the specs (and the folders of .puz files) the page may open and save: no other file is read or written",
    )
    serve_p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    serve_p.add_argument(
        "--public",
        action="store_true",
        help="allow an address other machines reach (0.0.0.0, a LAN address): anyone there may then use it",
    )
    serve_p.add_argument("--port", type=_whole, default=0, help="the port (default: a free one, printed)")
    serve_p.add_argument("--open", action="store_true", help="open the page in a browser")
    serve_p.add_argument(
        "--jobs", type=_count("jobs", "2"), default=2, metavar="N", help="searches at once (default: 2; more wait)"
    )
    _limit_options(
        serve_p,
        states_help=f"stop each hint or solve after N states (default: {serve_defaults.MAX_STATES:,})",
        timeout_help=f"stop each hint or solve after S seconds (default: {serve_defaults.TIME_LIMIT:g})",
        memory_mb=serve_defaults.MAX_MEMORY_MB,
    )

    graph_p = sub.add_parser("graph", help="write the state graph of a small puzzle (DOT or GraphML)")
    graph_p.add_argument("spec", help="a .puz file, or the name of a shipped spec (frog)")
    graph_p.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help="set a parameter")
    graph_p.add_argument("--format", choices=("dot", "graphml"), default="dot")
    graph_p.add_argument(
        "--layout",
        choices=LAYOUTS,
        help=f"the Graphviz engine written into the DOT (default: dot up to {LAYERED_UP_TO} edges, sfdp beyond)",
    )
    graph_p.add_argument(
        "--max-edges",
        type=_count("edges", "5000"),
        metavar="N",
        help=f"draw at most N edges (default {GRAPH_EDGES:,}, about what Graphviz lays out in seconds)",
    )
    _limit_options(graph_p, f"draw at most N states (default {GRAPH_STATES:,}): a larger graph is refused")
    return parser


def _workers(text: str) -> int:
    """`--workers N` (at least 1, at most WORKERS_PER_CORE a core: see workers.count_problem)
    or `auto` (0: one per core)."""
    if text == "auto":
        return 0
    digits = text.strip()
    if not digits.isdigit() or not digits.isascii() or len(digits) > 9 or int(digits) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of workers such as 4, or auto, got '{text}'")
    problem = parallel.count_problem(int(digits))
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return int(digits)


def _cluster(text: str) -> str:
    """`--cluster ADDRESS`: a scheduler's address, checked as it is read (see
    workers.scheduler_address); whether a scheduler answers there is asked once the spec is
    known to need one (`_workers_asked`)."""
    try:
        return parallel.scheduler_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _whole(text: str) -> int:
    digits = text.strip().removeprefix("-")
    if not digits.isdigit() or not digits.isascii() or len(digits) > 18:
        raise argparse.ArgumentTypeError(f"expected a whole number such as 7, got '{text}'")
    return int(text)


ENGINE_NAMES = ("auto", *registry.NAMES)


def _engine_option(p: argparse.ArgumentParser, explained: bool = False) -> None:
    described = "; ".join(f"{d.name}: {d.summary}" for d in registry.DESCRIPTIONS)
    p.add_argument(
        "--engine",
        choices=(*ENGINE_NAMES, "help") if explained else ENGINE_NAMES,
        default="auto",
        help=f"auto (default): Python first, and the engines that may answer beside it, the first answer "
        f"winning; {described}"
        + ("; help: which engine would answer this question on this spec, and why" if explained else ""),
    )


def _limit_options(
    p: argparse.ArgumentParser,
    states_help: str | None = None,
    timeout_help: str = "stop after S seconds",
    memory_mb: float = DEFAULT_MAX_MEMORY_MB,
) -> None:
    p.add_argument(
        "--max-states",
        type=_count("states", "1000000"),
        default=None,
        metavar="N",
        help=states_help
        or f"stop after N states (default: {DEFAULT_MAX_STATES:,} stored; visited states are then not limited)",
    )
    p.add_argument("--timeout", type=_amount("seconds", "30"), default=None, metavar="S", help=timeout_help)
    p.add_argument(
        "--max-memory",
        type=_amount("MB", "2000"),
        default=None,
        metavar="MB",
        help=f"stop past MB of memory (default: {memory_mb:g})",
    )


def _limits(args: argparse.Namespace) -> Limits:
    """The limits of this run, counting from now: reading and compiling the spec count."""
    if args.max_memory is not None and not MEMORY_WATCHED:
        raise UsageError("--max-memory cannot be kept on this platform (Python has no `resource` module here)")
    if args.max_memory is None:
        return Limits(max_states=args.max_states, timeout=args.timeout)  # the default memory limit
    return Limits(max_states=args.max_states, timeout=args.timeout, max_memory_mb=args.max_memory)


def cmd_run(args: argparse.Namespace, out: Console, ctrl_c: CtrlC) -> int:
    """Load and search under the run's limits (armed from the start: reading and compiling
    count), then render outside them, so that a limit (or Ctrl-C) never cuts the report short."""
    args.spec = str(resolve_spec(args.spec))
    limits = _limits(args)
    params = _params(args.param)
    if args.seed is not None:
        params.setdefault("seed", str(args.seed))
    every: AllSolutions | None = None
    glyphs = choose(args.ascii, out.encoding)
    progress = _progress(args, out)
    limits.progress = progress
    limits.notice = progress.notice if progress is not None else None
    try:
        with limits.armed():
            compiled = load(args.spec, params)
            if args.engine == "help":
                return _explain_engines(args, out, compiled)
            asked = _asked(args, compiled)
            replayed = _replayed(compiled, args.replay, limits) if args.replay is not None else None
            if args.format == "text":
                text.heading(compiled.puzzle, out, glyphs)  # before the search: a long one is not a blank screen
            if replayed is not None:
                best = _best_for_replay(compiled, asked, replayed, limits)
            elif asked.listing:
                every = _all_solutions(args, out, compiled, asked, limits, glyphs)
            else:
                solved = solve(compiled, asked, limits, args.spec)
    except LimitReached as exc:
        ctrl_c.quiet()
        stop = _replay_stop(exc) if args.replay is not None else None
        if stop is not None:
            return _stopped_replaying(args, params, stop, limits)
        return _stopped_before_search(args, params, exc.reason, limits)
    finally:
        ctrl_c.quiet()  # the search is over: what follows is the report
        if progress is not None:
            progress.stop()
    if replayed is not None:
        return _show_replay(args, out, compiled, replayed, best, glyphs)
    answered = every if every is not None else solved.result
    if args.verbose or _handed_over(args.engine, answered):
        _say_engine(answered, args.verbose)
    if args.format in ("svg", "html"):
        return _write_picture(args, compiled, every, None if every is not None else solved)
    if every is not None:
        if args.format == "text":
            text.all_summary(every, out, glyphs)
        else:
            _dump(data.all_to_data(compiled, args.spec, every), args.format)
        if every.status == LIMIT:
            return EXIT_LIMIT
        return EXIT_NO_SOLUTION if every.status == NO_SOLUTION else EXIT_OK
    if args.format == "text":
        text.render(solved, out, count=args.count, reach=args.reach, explain=args.explain, glyphs=glyphs, headed=True)
    else:
        _dump(data.to_data(solved, count=args.count, reach=args.reach), args.format)
    status = solved.result.status
    if solved.result.stopped:  # no answer, or a solution whose uniqueness a limit left unproved
        return EXIT_LIMIT
    return EXIT_NO_SOLUTION if status == NO_SOLUTION and not args.reach else EXIT_OK


def _replayed(compiled: CompiledPuzzle, replay: str, limits: Limits) -> Replayed:
    """The solution file's moves, replayed (`play.record`, imported here: only `--replay` needs
    it, and a run that replays nothing does not pay its import)."""
    from .play.record import read_solution

    return read_solution(compiled, replay, limits)


def _replay_stop(exc: LimitReached) -> ReplayStopped | None:
    """The replay's own stop (a move the rules refuse), where that ended the run."""
    from .play.record import ReplayStopped

    return exc if isinstance(exc, ReplayStopped) else None


def _best_for_replay(compiled: CompiledPuzzle, asked: Asked, replayed: Replayed, limits: Limits) -> SearchResult | None:
    """The shortest (or cheapest) solution, to compare a replayed one with: where the spec
    searches for one, and the moves replayed reach the goal."""
    if asked.mode not in ("shortest", "cheapest") or not compiled.is_goal(replayed.final(compiled)):
        return None
    return answer(compiled, asked.query, limits, asked.options)


def _show_replay(
    args: argparse.Namespace,
    out: Console,
    compiled: CompiledPuzzle,
    replayed: Replayed,
    best: SearchResult | None,
    glyphs: Glyphs,
) -> int:
    """The moves of a solution file drawn as `run` draws a solution, and the verdict: exit 0
    where they reach the goal, 1 where they do not (a check that failed)."""
    reached = compiled.is_goal(replayed.final(compiled))
    if args.format == "svg":
        from .render import svg

        drawn = svg.animated_svg if args.animate else svg.solution_svg
        sys.stdout.write(drawn(compiled, replayed.path, picture_title(compiled.puzzle)))
    elif args.format == "html":
        from .render import html

        sys.stdout.write(html.solution_html(compiled, replayed.path, picture_title(compiled.puzzle)))
    elif args.format == "text":
        text.draw_solution(compiled, replayed.path, out, args.explain, glyphs)
        parts, style = text.replay_parts(compiled, replayed.path, reached, best)
        text.print_parts(out, parts, glyphs.separator, style)
    else:
        _dump(data.replay_to_data(compiled, args.spec, args.replay, replayed.path, reached, best), args.format)
    return EXIT_OK if reached else EXIT_MISMATCH


def _asked(args: argparse.Namespace, compiled: CompiledPuzzle) -> Asked:
    """The question of this run, worked out once, and the options it runs with: refused with
    the reason where an option would change nothing or cannot apply (the API refuses the same:
    questions.py)."""
    question = _question(args)
    workers = _workers_asked(args, compiled, query_of(compiled, question))
    options = RunOptions(
        "workers" if workers is not None else args.engine, workers or Workers(), args.heuristic, args.patterns
    )
    _refuse_idle_options(args, compiled, question, options)
    return ask(compiled, question, options)


def _workers_asked(args: argparse.Namespace, compiled: CompiledPuzzle, query: Query) -> Workers | None:
    """`--workers N` or `--cluster ADDRESS`: the workers the engine `workers` runs on (refused,
    with the reason, where it cannot walk this spec's question); None: neither was given."""
    if args.workers is None and args.cluster is None:
        return None
    asking = "--cluster" if args.cluster is not None else f"--workers {args.workers or 'auto'}"
    if args.workers is not None and args.cluster is not None:
        raise UsageError("--workers N starts workers here and --cluster ADDRESS uses a cluster's: give one of them")
    if args.replay is not None:
        raise UsageError(
            f"{asking} runs a search on the workers: it does not go with --replay, which checks a solution "
            "file's moves here, one after another (and searches the shortest it is compared with here too)"
        )
    if args.engine not in ("auto", "workers"):
        raise UsageError(f"{asking} runs the search on the workers: it does not go with --engine {args.engine}")
    workers = Workers(args.workers or None, args.cluster)
    why = registry.engine("workers", RunOptions("workers", workers)).why_not(compiled, query)
    if why is not None:
        raise UsageError(f"{asking} cannot run this: {why}")
    if args.cluster is not None:
        try:
            parallel.reach(args.cluster)  # within CONNECT_SECONDS, said in our words (see workers.reach)
        except parallel.Unreachable as exc:
            raise UsageError(f"--cluster: {exc}") from None
    return workers


def _handed_over(asked: str, result: AllSolutions | SearchResult) -> bool:
    """Whether the engine asked for by name handed the question to another once it ran (a
    value past the kernel's words): said on stderr even without --verbose, since the answer
    is not the named engine's."""
    return asked != "auto" and result.tried_first == asked and result.engine != asked


def _say_engine(result: AllSolutions | SearchResult, verbose: bool) -> None:
    """`--verbose`: the engine that answered and how (or that none did before a limit), and
    the one tried first and why it did not answer, on stderr (the output itself stays the
    same); then, where `auto` derived no heuristic, why. Without `--verbose` (an engine asked
    by name handed over), the engine's line alone. What the output has written so far goes
    first, so that the line never lands inside it where both go to one file (`2>&1`)."""
    sys.stdout.flush()
    sys.stderr.write(engine_line(result) + "\n")
    why = heuristic_line(result) if verbose else None
    if why is not None:
        sys.stderr.write(why + "\n")


def _explain_engines(args: argparse.Namespace, out: Console, compiled: CompiledPuzzle) -> int:
    """`--engine help`: each engine, whether it answers the question asked of this spec (or
    why not), and what `auto` does with it."""
    asked = ask(compiled, _question(args), RunOptions())
    for line in plan.explain(compiled, asked.query, asked.options, counted=asked.walk and args.count):
        text.print_line(out, line)
    return EXIT_OK


def _question(args: argparse.Namespace) -> Question:
    return Question(args.count, args.reach, args.all, args.limit, args.method, args.distinct, args.from_goal)


def _refuse_idle_options(
    args: argparse.Namespace, compiled: CompiledPuzzle, question: Question, options: RunOptions
) -> None:
    """An option that would not change anything for this spec and question is a usage error
    that says why, not something quietly ignored (the API refuses the same: questions.py)."""
    mode = ask(compiled, question, options).mode
    listing = question.listing(mode)
    if args.distinct and listing:
        raise UsageError("--distinct groups the shortest solutions: it does not go with --all")
    if args.draw and not (listing and mode != "all"):
        raise UsageError(
            "--draw draws each of every shortest solution move by move: it goes with --all, on a puzzle of moves"
            if not listing
            else "--draw draws solutions move by move: this spec's solutions (`search all`) are drawn as boards"
        )
    if args.animate and args.format != "svg":
        raise UsageError(f"--animate draws an animated SVG: it goes with --format svg (not --format {args.format})")
    if args.format in ("svg", "html") and (args.count or args.reach or args.distinct or (args.all and mode != "all")):
        raise UsageError(
            f"--format {args.format} draws one solution (or the boards of a `search all` spec's solutions): "
            "it does not go with --count, --reach, --distinct or --all"
        )
    if args.replay is not None and (
        args.count or args.reach or args.from_goal or args.all or args.limit is not None or args.distinct or args.draw
    ):
        raise UsageError(
            "--replay checks the moves of a solution file: it does not go with --count, --reach, --from-goal, "
            "--all, --limit, --distinct or --draw"
        )
    if args.replay is not None:
        _refuse_judging_the_best(compiled, "--replay")
    if args.explain:
        why_not = _explain_refused(args, compiled, listing)
        if why_not is not None:
            raise UsageError(why_not)
    try:
        why = refusal(compiled, question, options, command_line)
    except SpecError as exc:  # a rule's mistake met while an engine looks at the puzzle
        raise positioned(compiled, exc) from None
    if why is not None:
        raise UsageError(why)


def _explain_refused(args: argparse.Namespace, compiled: CompiledPuzzle, listing: bool) -> str | None:
    """Why --explain cannot annotate this run, naming what conflicts (None: it can): it
    shows the moves a safety rule forbids before each move of one solution, drawn as text."""
    said = "--explain shows, before each move of one solution, the moves a safety rule forbids"
    if compiled.filling is not None:
        return f"{said}: this spec fills cells and has no moves (`fill cells with`)"
    if args.format != "text":
        return f"{said} in the text drawing: it does not go with --format {args.format}"
    if args.all:
        return f"{said}: it does not go with --all"
    if listing:
        return f"{said}: this spec lists every solution (`search all`); ask for one with `search any`"
    return None


def _refuse_judging_the_best(compiled: CompiledPuzzle, asking: str) -> None:
    """A game, or a solution file replayed, on a spec with an objective: refused, with the
    reason (`questions.judged_by_rules_alone`)."""
    why = judged_by_rules_alone(compiled, asking)
    if why is not None:
        raise UsageError(why)


def _progress(args: argparse.Namespace, out: Console) -> SearchProgress | None:
    """A progress line for a long search, on a terminal only: the output's own console for
    text (so that streamed solutions print above it), stderr for JSON and YAML."""
    if args.quiet:
        return None
    console = out if args.format == "text" else Output(stderr=True)
    if not console.is_terminal:
        return None
    from .render.progress import SearchProgress  # rich's live display: only where it is shown

    return SearchProgress(console)


def _all_solutions(
    args: argparse.Namespace, out: Console, compiled: CompiledPuzzle, asked: Asked, limits: Limits, glyphs: Glyphs
) -> AllSolutions:
    """Every solution, streamed as found (text), or collected (JSON/YAML); --count only counts."""
    listing = not args.count
    streamer: text.SolutionStream | text.MoveListStream | None = None
    if args.format == "text" and listing:
        streamer = (
            text.SolutionStream(compiled, out, glyphs)
            if asked.walk
            else text.MoveListStream(compiled, out, glyphs, draw=args.draw)
        )
    keep = listing and streamer is None
    on_solution = streamer.add if streamer is not None else None
    if asked.walk:  # the text shows each goal state, not the moves to it
        report = enumerate_solutions(compiled, limits, args.limit, keep, on_solution, asked.options, moves=keep)
    else:
        report = enumerate_shortest(compiled, limits, args.limit, keep, on_solution)
    if streamer is not None:
        streamer.flush()
    return report


def _write_picture(
    args: argparse.Namespace, compiled: CompiledPuzzle, every: AllSolutions | None, solved: Solved | None
) -> int:
    """The picture (SVG) or the page (HTML) on standard output; a run without one says why on
    standard error."""
    from .render import svg

    title = picture_title(compiled.puzzle)
    if every is not None:
        status, (parts, _) = every.status, text.all_summary_parts(every)
        panels = svg.boards_panels(compiled, every.solutions) if status == SOLVED else None
    else:
        assert solved is not None
        status, (parts, _) = solved.result.status, text.summary_parts(solved, False, False)
        panels = svg.solution_panels(compiled, solved.result.path) if status == SOLVED else None
    if panels is None:
        sys.stderr.write(f"puzint: nothing to draw: {visible(' · '.join(parts))}\n")
    elif args.format == "html":
        from .render import html

        sys.stdout.write(html.steps_html(title, panels))
    else:
        sys.stdout.write(svg.animated_of(title, panels) if args.animate else svg.picture_of(title, panels))
    if status == LIMIT:
        return EXIT_LIMIT
    return EXIT_NO_SOLUTION if status == NO_SOLUTION else EXIT_OK


def _stopped_before_search(args: argparse.Namespace, params: dict[str, str], reason: str, limits: Limits) -> int:
    """A limit reached while the spec was read and compiled: nothing was searched."""
    seconds = limits.elapsed()
    if args.format in ("text", "svg", "html"):
        sys.stderr.write(
            f"puzint: stopped while reading and compiling {visible(args.spec)}: {reason} · {seconds:.1f} s\n"
        )
    else:
        _dump(data.stopped_to_data(args.spec, params, reason, seconds), args.format)
    return EXIT_LIMIT


def _stopped_replaying(args: argparse.Namespace, params: dict[str, str], stop: ReplayStopped, limits: Limits) -> int:
    """A limit (or Ctrl-C) reached while a solution file's moves were checked: where, and
    what was explored (a state may have tens of thousands of legal moves to look through)."""
    seconds = limits.elapsed()
    if args.format in ("text", "svg", "html"):
        sys.stderr.write(
            f"puzint: stopped while checking the moves of {visible(stop.filename)}, at line {stop.line}: "
            f"{stop.reason} · {stop.explored()} · {seconds:.1f} s\n"
        )
    else:
        where = {"replay": stop.filename, "line": stop.line, "moves_checked": stop.checked}
        _dump(
            data.stopped_to_data(args.spec, params, stop.reason, seconds, "replaying", stop.listed, where), args.format
        )
    return EXIT_LIMIT


def _dump(payload: dict[str, object], fmt: str) -> None:
    if fmt == "json":
        sys.stdout.write(data.json_text(payload) + "\n")
    else:
        import yaml  # only here and in `check`: keeps start-up short for everything else

        sys.stdout.write(yaml.safe_dump(payload, sort_keys=False, allow_unicode=True))


def cmd_gallery(args: argparse.Namespace, out: Console) -> int:
    """The gallery page and its pictures, drawn again (see gallery.py)."""
    from .gallery import write

    folder = Path(args.dir)
    if (folder.exists() or folder.is_symlink()) and not folder.is_dir():  # a folder not there yet is made
        raise UsageError(f"{folder} is not a directory: the gallery is written into one (docs)")
    drawn = write(folder, say=lambda name: text.print_line(out, Text(f"drawing {name}", style="dim")))
    text.print_line(out, Text(f"{drawn} pictures: {folder / 'gallery.md'}"))
    return EXIT_OK


def cmd_list(args: argparse.Namespace, out: Console) -> int:
    """The shipped specs, each with its title, its `about` line and its parameters (their
    defaults and what they mean): what `puzint run NAME` can run."""
    from .language import syntax as s
    from .language.elaborate import elaborate
    from .language.parser import parse
    from .sources import read_source

    folder = catalogue_dir()
    shipped = []
    for name in shipped_names():
        path = folder / f"{name}.puz" if folder is not None else Path(name)
        spec = parse(read_source(path), str(path))
        docs = {stmt.name: stmt.doc for stmt in spec.statements if isinstance(stmt, s.Param)}
        shipped.append((name, elaborate(spec, {}), docs))
    if args.format == "json":
        entries = [
            {
                "name": name,
                "title": puzzle.title,
                "about": puzzle.about,
                "params": {k: {"default": data._plain(v), "about": docs.get(k, "")} for k, v in puzzle.params.items()},
            }
            for name, puzzle, docs in shipped
        ]
        _dump({"specs": entries}, "json")
        return EXIT_OK
    width = max((len(name) for name, _, _ in shipped), default=0)
    indent = " " * min(width + 2, out.width // 3)
    room = max(20, out.width - len(indent))
    for name, puzzle, docs in shipped:
        text.print_line(out, Text(f"{name:<{width}}  ", style="bold").append(visible(puzzle.title)))
        notes = [puzzle.about] if puzzle.about else []
        notes += [f"{k}={show(v)}" + (f": {docs[k]}" if docs.get(k) else "") for k, v in puzzle.params.items()]  # type: ignore[arg-type]
        for note in notes:
            for line in textwrap.wrap(visible(note), room) or [""]:
                text.print_line(out, Text(indent + line, style="dim"))
    text.print_line(out, Text(f"{len(shipped)} specs: puzint run NAME [-p NAME=VALUE]", style="dim"))
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    """The puzzle in the terminal, played by hand (play/app.py)."""
    given = args.spec
    path = resolve_spec(given)
    params = _params(args.param)
    compiled = load(path, params)
    _refuse_judging_the_best(compiled, "puzint play")
    save_to = Path(args.save) if args.save else Path(Path(given).name).with_suffix(".moves")
    problem = unwritable(save_to)  # said before the game, not when a save fails at its end
    if problem is not None:
        raise UsageError(f"{CannotWrite(save_to, problem)} (--save FILE saves the moves elsewhere)")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(
            "puzint play needs a terminal to play in (to check a solution file without one: "
            "puzint run SPEC --replay FILE)"
        )
    command = " ".join(["puzint run", shlex.quote(given), *(f"-p {shlex.quote(p)}" for p in args.param)])
    from .play.app import PlayApp  # textual: only where a game is played

    app = PlayApp(compiled, save_to, command)
    app.run()
    if app.unsaved is not None:  # shown in the game too: said again once the screen is gone
        sys.stderr.write(f"puzint: the moves were not saved: {visible(str(app.unsaved))}\n")
        return EXIT_BAD_INPUT
    return EXIT_OK


def cmd_lsp(args: argparse.Namespace) -> int:
    """The language server an editor starts (lsp/), until the editor says exit."""
    from .lsp.server import serve  # pygls: only where an editor asks for it

    serve()
    return EXIT_OK


def cmd_serve(args: argparse.Namespace, out: Console) -> int:
    """The playground (serve/), until Ctrl-C."""
    from .serve.app import Settings
    from .serve.named import Named
    from .serve.server import NotServed, serve

    if args.max_memory is not None and not MEMORY_WATCHED:
        raise UsageError("--max-memory cannot be kept on this platform (Python has no `resource` module here)")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: a port is from 0 (a free one) to 65535")
    settings = Settings(
        named=Named.of(args.files),
        time_limit=args.timeout or Settings.time_limit,
        max_states=args.max_states or Settings.max_states,
        max_memory_mb=args.max_memory or Settings.max_memory_mb,
        jobs=args.jobs,
    )
    try:
        serve(settings, args.host, args.port, args.public, args.open, lambda line: text.print_line(out, Text(line)))
    except NotServed as exc:
        raise UsageError(str(exc)) from None
    return EXIT_OK


def cmd_graph(args: argparse.Namespace, ctrl_c: CtrlC) -> int:
    """Every reachable state and move, with the solution's path marked, on standard output; a
    graph larger than --max-states is refused whole rather than cut."""
    from .render import graph as drawing
    from .search.graph import state_graph

    args.spec = str(resolve_spec(args.spec))
    cap = args.max_states or GRAPH_STATES
    limits = Limits(timeout=args.timeout) if args.max_memory is None else _limits(args)
    limits.max_states = None
    try:
        with limits.armed():
            compiled = load(args.spec, _params(args.param))
            _refuse_judging_the_best(compiled, "puzint graph")  # its goals: every filling that keeps the rules
            graph = state_graph(compiled, limits, cap)
            if graph.complete:
                mode = "cheapest" if compiled.puzzle.search == "cheapest" else "shortest"
                result = answer(compiled, Query.of(compiled, mode=mode), limits, RunOptions())
    except LimitReached as exc:
        ctrl_c.quiet()
        sys.stderr.write(f"puzint: the state graph was not drawn: {exc.reason}\n")
        return EXIT_LIMIT
    finally:
        ctrl_c.quiet()
    if not graph.complete:
        sys.stderr.write(
            f"puzint: the state graph was not drawn: {graph.limit_reason} "
            f"({len(graph.states):,} states found; --max-states N draws up to N)\n"
        )
        return EXIT_LIMIT
    title = picture_title(compiled.puzzle)
    path = result.path if result.status == SOLVED else None
    if args.format == "graphml":
        if args.layout is not None or args.max_edges is not None:
            raise UsageError("--layout and --max-edges are for the DOT drawing: GraphML keeps every edge, unlaid")
        sys.stdout.write(drawing.to_graphml(compiled, graph, path, title))
        return EXIT_OK
    edges = len(drawing.drawn_edges(graph))
    most = args.max_edges or GRAPH_EDGES
    if edges > most:
        sys.stderr.write(
            f"puzint: the state graph was not drawn: {edges:,} edges between {len(graph.states):,} states, more than "
            f"{most:,} (Graphviz would take minutes or hours); --max-edges N draws up to N edges "
            "(--layout sfdp suits large graphs), --format graphml writes it for other tools\n"
        )
        return EXIT_LIMIT
    sys.stdout.write(drawing.to_dot(compiled, graph, path, title, args.layout))
    return EXIT_OK


def cmd_check(args: argparse.Namespace, out: Console, ctrl_c: CtrlC) -> int:
    """Every case of every spec, each reported in order as it ends (on several cores at once,
    see `checking`); Ctrl-C stops the check after the cases it interrupts, with the summary of
    what was checked (exit 3)."""
    from .checking import CaseChecked, check, default_jobs
    from .expectations import find_specs

    if args.record:
        if args.jobs is not None:
            raise UsageError("--jobs goes with a check of cases: --record runs one search")
        return _record(args, out)
    if args.param:
        raise UsageError("-p sets the parameters of the case --record writes: a check takes them from SPEC.yaml")
    specs = find_specs(args.targets)
    if not specs:
        where = ", ".join(args.targets) if args.targets else f"{Path('specs').resolve()} (there is no specs/ here)"
        raise UsageError(f"no .puz specs found in {where}")
    failed = passed = 0
    unusable: set[Path] = set()
    started = time.monotonic()
    jobs = args.jobs or default_jobs()
    events = check(specs, RunOptions(args.engine), _limits(args), jobs, ctrl_c, out if out.is_terminal else None)
    with closing(events):  # closed at once if the report fails: its processes end with it
        for event in events:
            if not isinstance(event, CaseChecked):
                text.print_line(out, Text(visible(str(event.spec)), style="bold"))
            if event.errors:
                unusable.add(event.spec)
                sys.stderr.writelines(error + "\n" for error in event.errors)
            elif isinstance(event, CaseChecked):
                ok = _report_case(out, event)
                passed, failed = passed + ok, failed + (not ok)
    parts = [f"{len(specs)} spec(s), {passed + failed} case(s): {passed} passed, {failed} failed"]
    if unusable:
        parts.append(f"{len(unusable)} spec(s) could not be checked")
    if ctrl_c.heard:
        parts.append("stopped: interrupted")
    parts.append(f"{time.monotonic() - started:.1f} s")
    text.print_parts(out, parts, " · ")
    if ctrl_c.heard:
        return EXIT_LIMIT
    if unusable:
        return EXIT_BAD_INPUT
    return EXIT_MISMATCH if failed else EXIT_OK


def _report_case(out: Console, checked: CaseChecked) -> bool:
    """A case's line (and, where it failed, what differs); whether it passed."""
    case = checked.case
    mismatches = case.mismatches
    took = f"[dim]({checked.seconds:.2f} s)[/dim]"
    title = _markup_free(case.title())
    if not mismatches:
        got = ", ".join(f"{k} {case.actual.get(k)}" for k in case.expected if k != "status")
        out.print(f"  [green]ok[/green]   {title}: {_markup_free(got or case.actual['status'])} {took}")
        return True
    out.print(f"  [red]FAIL[/red] {title} {took}")
    for key in mismatches:
        expected, actual = _markup_free(repr(case.expected[key])), _markup_free(repr(case.actual.get(key)))
        out.print(f"       {key}: expected {expected}, got {actual}")
    if "limit" in case.actual:
        out.print(f"       (search stopped: {_markup_free(case.actual['limit'])})")
    return False


def _record(args: argparse.Namespace, out: Console) -> int:
    """`check --record SPEC`: the run's answer written as a case of the expectation file."""
    from .expectations import record_case

    if len(args.targets) != 1:
        raise UsageError("--record writes the expectations of one spec: give one spec file")
    spec = Path(args.targets[0])
    if not spec.is_file() or spec.suffix != ".puz":
        shipped = " (a shipped spec: copy it here first)" if resolve_spec(spec) != spec else ""
        raise UsageError(f"--record writes SPEC.yaml beside the spec: {spec} is not a .puz file{shipped}")
    limits = _limits(args)
    with limits.armed():
        path, case = record_case(spec, _params(args.param), limits, RunOptions(args.engine))
    text.print_line(out, Text(f"added to {path}:", style="bold"))
    for line in case.rstrip("\n").split("\n"):
        text.print_line(out, Text(line))
    text.print_line(out, Text("An expected answer comes from the puzzle: check these figures against it.", style="dim"))
    return EXIT_OK


def _markup_free(value: object) -> str:
    """A value from a spec or an expectation file, put into rich markup: read as written."""
    return escape(visible(str(value)))


def report_error(exc: SpecError) -> None:
    """Errors go out as plain text: no colour codes, no re-wrapping, so carets stay aligned."""
    sys.stderr.write(exc.render() + "\n")


def main(argv: list[str] | None = None) -> int:
    """The `puzint` command, run in this process; the caller's Ctrl-C handler is put back
    when it ends."""
    with CtrlC().installed() as ctrl_c:
        return _command(argv, ctrl_c)


def program() -> NoReturn:
    """`puzint` and `python -m puzint`: the command, then the process's exit, with Ctrl-C
    ignored from the end of the command on (the output still flushed at exit is not cut by
    one, and no traceback is shown)."""
    ctrl_c = CtrlC()
    ctrl_c.install()
    try:
        code = _command(None, ctrl_c)
        ctrl_c.quiet()
    except KeyboardInterrupt:  # the first Ctrl-C, just as the command returned
        code = EXIT_LIMIT
    raise SystemExit(code)


def _command(argv: list[str] | None, ctrl_c: CtrlC) -> int:
    out = Output(highlight=False)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        if args.command == "run":
            return cmd_run(args, out, ctrl_c)
        if args.command == "graph":
            return cmd_graph(args, ctrl_c)
        if args.command == "play":
            return cmd_play(args)
        if args.command == "lsp":
            return cmd_lsp(args)
        if args.command == "serve":
            return cmd_serve(args, out)
        if args.command == "list":
            return cmd_list(args, out)
        if args.command == "gallery":
            return cmd_gallery(args, out)
        return cmd_check(args, out, ctrl_c)
    except SpecError as exc:
        report_error(exc)
        return EXIT_BAD_INPUT
    except (UsageError, CannotWrite) as exc:  # CannotWrite: a file the command was to write (files.py)
        sys.stderr.write(f"puzint: {visible(str(exc))}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write("puzint: interrupted\n")
        return EXIT_LIMIT
    except (BrokenPipeError, PipeClosed):
        _silence_stdout()
        return EXIT_OK
    except MemoryError:
        sys.stderr.write(
            "puzint: stopped: the process ran out of memory before the memory limit was reached"
            " (a smaller --max-memory MB stops the search cleanly, with what it explored)\n"
        )
        return EXIT_LIMIT
    except Exception as exc:  # the last guard: a bug must not show a user a traceback
        if os.environ.get("PUZINT_DEBUG"):
            raise
        sys.stderr.write(
            f"puzint: internal error: {type(exc).__name__}: {visible(str(exc))} (set PUZINT_DEBUG=1 for details)\n"
        )
        return 70


if __name__ == "__main__":
    raise SystemExit(main())
