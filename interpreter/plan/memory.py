"""Which engine won each question's race by a clear margin, so that `auto` asks it alone.

The race (`race`) finds the faster engine for a search by running Python and the engines
beside it at once. On a machine whose cores share more than they seem to (two virtual cores
on one physical one), each slows the others: importing numpy takes twice as long beside a
busy process, and a search a copy answers costs 5-15 % more than the engine asked by name. A
person runs the same spec again and again while writing it, checking it or showing it; the
second time the answer to the race is known. So the engine that answered first is remembered
per question (the spec's text, the parameters given, its start, its board's size and goal
(a level read from a file changes them), the question asked, the heuristic that guides it
(`--heuristic` changes it, not the text) and the kernel's sources),
where it won by a clear margin (every other engine had searched `table.MARGIN` times as long
as its search and had not answered, each engine's loading left out alike: `race.won_clearly`;
a close race, or one run on a busy machine, says nothing of which is faster, and is run
again), and the next run of that
question asks it alone: no race, no copy. Every engine's answer is exact, so only the time
depends on the choice (where a puzzle has several solutions, the one shown may be another).

What is remembered is a cache, kept beside the kernel's (`kernel.where.cache_base`), in one
small JSON file that is read without trusting it, and only where the folder passes the checks
the kernel's cache makes (`files.unsafe_folder`: else whoever could write it could choose the
engine, or link the file to one of the user's for the next write to replace): the file is read
only if it is the user's own, not a link, and small (`files.read_own_file`); one that does
not parse is an empty table; an entry that is not an engine's name and a count is passed
over, and left out when the file is written again (`files.write_file`). What cannot be
used is said once on stderr, and nothing is remembered. A remembered engine is
asked alone `AGAIN` times, then the question is raced again. Deleting the file forgets
everything; PUZINT_REMEMBER=0 turns remembering off (every run races), as the test suite
does so that one test's run does not choose another's engine.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
from pathlib import Path

from ..compiler import CompiledPuzzle
from ..engines import Query, registry
from ..files import CannotWrite, UnusableFile, read_own_file, unsafe_folder, warn, write_file

FILE = "answered.json"
ENGINES = ("python", *registry.RACING)  # the engines a race names: Python, and those beside it
REMEMBERED = "it won this question's last race by a clear margin"
AGAIN = 8  # runs that ask a remembered engine alone before the question is raced again
KEPT = 2000  # questions remembered; the oldest are forgotten first
MOST_BYTES = 1 << 20  # a file of KEPT entries takes about 150 kB

Table = dict[str, tuple[str, int]]  # question -> (engine, runs that asked it alone since its race)

TABLES_HERE = "tables derived from the spec guide it, and the kernel answered such a search in this process before"
_tables_on_the_kernel = [False]  # this process's own: see `tables_on_the_kernel`


def guided_by_tables(compiled: CompiledPuzzle) -> bool:
    """Whether tables derived from the spec (pattern databases, one-piece tables) guide the
    search of this puzzle (`plan.heuristic`)."""
    return compiled.puzzle.patterns is not None or compiled.puzzle.alone is not None


def tables_on_the_kernel() -> bool:
    """Whether the kernel answered a search guided by derived tables in this process (a program
    that asks many such questions: a benchmark, a check of many levels). Such a search is
    large by construction (the tables are derived where the puzzle is), and a race only hides
    the kernel's first load behind Python's head start: from the second one on, the kernel
    runs alone, here, loaded once (Korf's 100 fifteen puzzles in one process: 62 s alone,
    136 s raced, each race's copy loading the kernel again). PUZINT_REMEMBER=0 turns this off
    too."""
    return _tables_on_the_kernel[0] and os.environ.get("PUZINT_REMEMBER", "1") != "0"


def answered(compiled: CompiledPuzzle, engine: str) -> None:
    """`engine` answered a search of this puzzle in this process (or in a race's copy of it)."""
    if engine == "compiled" and guided_by_tables(compiled):
        _tables_on_the_kernel[0] = True


def recall(compiled: CompiledPuzzle, query: Query) -> str | None:
    """The engine that answered this question first when it was last raced, counting this run
    as one more that asks it alone; None where it is not known, or where it has been asked
    alone `AGAIN` times (then it is forgotten and the question raced again: one race whose
    two sides were close, or ran on a busy machine, is not kept for good)."""
    path = _path(make=False)
    key = _key(compiled, query) if path is not None else None
    if path is None or key is None:
        return None
    table = _read(path)
    if key not in table:
        return None
    engine, runs = table.pop(key)
    if runs < AGAIN:
        table[key] = (engine, runs + 1)
    _write(path, table)
    return engine if runs < AGAIN else None


def remember(compiled: CompiledPuzzle, query: Query, engine: str | None) -> None:
    """`engine` answered this question first (None, or an engine a race does not name:
    forget it, the next run races again)."""
    path = _path(make=True)
    key = _key(compiled, query) if path is not None else None
    if path is None or key is None:
        return
    if engine not in ENGINES:
        engine = None
    table = _read(path)
    if table.get(key) == (engine, 0) or (engine is None and key not in table):
        return
    table.pop(key, None)
    if engine is not None:
        table[key] = (engine, 0)
    for old in list(table)[: max(0, len(table) - KEPT)]:
        del table[old]
    _write(path, table)


def _path(make: bool) -> Path | None:
    """The file, or None where nothing is remembered: PUZINT_REMEMBER=0, no cache, no cache
    directory yet (unless `make`: then it is made, readable by the user alone, as the
    kernel's cache makes it), or (said once) a directory that the kernel's cache refuses."""
    from ..kernel.where import cache_base

    if os.environ.get("PUZINT_REMEMBER", "1") == "0":
        return None
    base = cache_base()
    if base is None or not (make or os.path.lexists(base)):
        return None
    try:
        with contextlib.suppress(FileExistsError):  # what is there already is checked below
            base.mkdir(mode=0o700, parents=True)
        problem = unsafe_folder(base, shared=True)
    except OSError as exc:
        problem = f"{exc.filename or base}: {exc.strerror or exc}"
    if problem is not None:
        _unused(problem)
        return None
    return base / FILE


def _unused(problem: str) -> None:
    warn(f"the engine that answered first is not remembered ({problem})", "answered")


def _key(compiled: CompiledPuzzle, query: Query) -> str | None:
    """The question's name: None for a puzzle built without a spec's text (through the API),
    which nothing tells apart from another."""
    from ..kernel.where import cache_name

    puzzle = compiled.puzzle
    if not puzzle.source:
        return None
    digest = hashlib.sha256()
    asked = repr(dataclasses.astuple(query))
    board = repr((compiled.cells, puzzle.goal.cells))  # a level read from a file changes these, not the text
    guide = repr(puzzle.heuristic)  # --heuristic changes the search, not the text (derived tables: their lookups)
    for part in (puzzle.source, repr(puzzle.given), compiled.start.hex(), board, asked, guide, cache_name()):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def _read(path: Path) -> Table:
    """The file's table: empty where there is none, where it may not be read (a link, a FIFO,
    another user's file, one others can write or larger than MOST_BYTES: said once), or where
    it is not a JSON table (even one nested too deep for Python to parse)."""
    try:
        data = read_own_file(path, most_bytes=MOST_BYTES)
    except UnusableFile as exc:
        _unused(str(exc))
        return {}
    try:
        table = json.loads(data.decode("utf-8")) if data is not None else {}
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return {}
    if not isinstance(table, dict):
        return {}
    return {key: (entry[0], entry[1]) for key, entry in table.items() if _sound(entry)}


def _sound(entry: object) -> bool:
    """Whether an entry read from the file is an engine's name and a count of runs."""
    return (
        isinstance(entry, list)
        and len(entry) == 2
        and entry[0] in ENGINES
        and type(entry[1]) is int
        and 0 <= entry[1] <= AGAIN
    )


def _write(path: Path, table: Table) -> None:
    """Written whole under another name, then renamed (`files.write_file`): a reader finds the
    old file or the new, and a link or a directory put at its name is refused (said once)."""
    try:
        write_file(path, json.dumps(table), mode=0o600)
    except CannotWrite as exc:
        _unused(str(exc))
