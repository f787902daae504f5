"""Pattern databases of a puzzle: which pieces each pattern keeps, the tables built on the
kernel (`kernel.patterns.build`), and the tables kept on disk beside the kernel's cache.

The patterns are chosen by a fixed rule: the pieces the goal places, in reading order of
their goal cells, cut into groups as large as the memory allowed for a build holds (every
state of a pattern's abstraction, its empty cells included, takes a byte and a bit while it
is searched), and no more states in all than `ALL_STATES` (the build's time). Groups of
neighbouring goal cells keep together pieces that block each other.
Where every move moves one piece the groups are disjoint and add up; otherwise the largest
group's table alone is kept (the maximum of several tables is never more than their sum, and
one larger table bounds better than several small ones).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import select
import signal
import sys
import time
from dataclasses import dataclass
from math import comb, perm
from pathlib import Path
from typing import TYPE_CHECKING

from ..files import CannotWrite, UnusableFile, read_own_file, unsafe_folder, warn, write_file
from ..model.patterns import PatternSet, PatternTable
from ..search.limits import Limits
from .abstraction import Abstraction, goal_states, operations

if TYPE_CHECKING:
    import numpy as np

BUILD_STATES = 64 << 20  # the most abstract states one table's build searches
ALL_STATES = 256 << 20  # the most abstract states the builds of every table search in all
FILE_VERSION = 1


@dataclass(frozen=True)
class Choice:
    """The patterns chosen (each a tuple of piece codes), or why none."""

    groups: tuple[tuple[int, ...], ...]
    why_none: str = ""


def states(abstraction: Abstraction, k: int) -> int:
    """The abstract states of a pattern of k pieces: their placements times the empty cells'."""
    n = abstraction.cells
    return perm(n, k) * comb(n - k, abstraction.empties)


def choose(abstraction: Abstraction, most_states: int = BUILD_STATES) -> Choice:
    """The groups of pieces (the fixed rule above), or why there are none."""
    pieces = [code for code, _ in abstraction.candidates]
    if not pieces:
        return Choice((), "no piece is on the board once and placed by the goal on one cell")
    k = 0
    while k < len(pieces) and k < 16 and states(abstraction, k + 1) <= most_states:
        k += 1
    if k == 0:
        return Choice((), f"a pattern of one piece has {states(abstraction, 1):,} states, more than {most_states:,}")
    groups = [tuple(pieces[i : i + k]) for i in range(0, len(pieces), k)]
    if not abstraction.single_piece:
        groups = groups[:1]
    searched = sum(states(abstraction, len(g)) for g in groups)
    if searched > max(ALL_STATES, most_states):
        return Choice((), f"the tables would search {searched:,} states to be built, more than {ALL_STATES:,}")
    return Choice(tuple(groups))


def build(abstraction: Abstraction, groups: tuple[tuple[int, ...], ...], limits: Limits) -> PatternSet:
    """The tables of these patterns (built on the kernel), with a word on what they cost.
    Where this process may fork and has a second core, a child builds every other table
    while this one builds the rest (the builds share nothing)."""
    began = time.monotonic()
    additive = abstraction.single_piece and len(groups) > 1
    here = list(range(len(groups)))
    there: list[int] = []
    if len(groups) > 1 and _second_core():
        there, here = here[0::2], here[1::2]
    built = _side_by_side(abstraction, groups, additive, limits, here, there)
    tables = tuple(PatternTable(codes, abstraction.cells, built[i]) for i, codes in enumerate(groups))
    made = PatternSet(tables, additive)
    about = _about(made, time.monotonic() - began, built=True)
    return PatternSet(made.tables, additive, about)


def _second_core() -> bool:
    """Whether a child may build beside this process: a fork that is safe (not on macOS,
    where a forked process may not use what the parent loaded) and two cores to run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return hasattr(os, "fork") and sys.platform != "darwin" and cores >= 2


def _side_by_side(
    abstraction: Abstraction,
    groups: tuple[tuple[int, ...], ...],
    additive: bool,
    limits: Limits,
    here: list[int],
    there: list[int],
) -> dict[int, bytes]:
    """The tables `here` built in this process and those `there` in a child, which sends
    them back through a pipe; the child is killed if this process stops (a limit, Ctrl-C)."""
    if not there:
        return {i: _table(abstraction, groups[i], additive, limits) for i in here}
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's own exit code is what the parent reads
        code = 1
        try:
            os.close(reading)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            with os.fdopen(writing, "wb") as out:
                for i in there:
                    out.write(_table(abstraction, groups[i], additive, Limits(max_memory_mb=None)))
            code = 0
        finally:
            os._exit(code)
    os.close(writing)
    try:
        built = {i: _table(abstraction, groups[i], additive, limits) for i in here}
        sizes = [perm(abstraction.cells, len(groups[i])) for i in there]
        data = _read_all(reading, sum(sizes), limits)
        _, status = os.waitpid(child, 0)
        child = 0
        if status != 0 or len(data) != sum(sizes):
            raise RuntimeError("the process that built half of the pattern databases failed")
        at = 0
        for i, size in zip(there, sizes, strict=True):
            built[i] = data[at : at + size]
            at += size
        return built
    finally:
        os.close(reading)
        if child:
            with contextlib.suppress(ProcessLookupError, ChildProcessError):
                os.kill(child, signal.SIGKILL)
                os.waitpid(child, 0)


def _read_all(handle: int, size: int, limits: Limits) -> bytes:
    """`size` bytes from a pipe, the limits checked while waiting."""
    chunks = []
    got = 0
    while got < size:
        ready, _, _ = select.select([handle], [], [], 0.2)
        if not ready:
            limits.check(0, stored=False, at="building pattern databases")
            continue
        chunk = os.read(handle, min(1 << 20, size - got))
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _table(abstraction: Abstraction, codes: tuple[int, ...], additive: bool, limits: Limits) -> bytes:
    import numpy as np  # here, not at the top: a run that builds no table does not load numpy (0.1 s)

    from ..kernel.machine.bytecode import UNREACHED
    from ..kernel.patterns.build import SCAN, TOP, layer

    n, k, e = abstraction.cells, len(codes), abstraction.empties
    combos = comb(n - k, e)
    total = perm(n, k) * combos
    weights = np.array([perm(n - i - 1, k - i - 1) for i in range(k)], dtype=np.int64)
    binom = np.array([[comb(a, j) for j in range(e + 2)] for a in range(n + 2)], dtype=np.int64)
    ops, starts, grouped, group_starts = operations(abstraction, codes)
    dist = np.full(total, UNREACHED, dtype=np.uint8)
    done = np.zeros((total + 7) // 8, dtype=np.uint8)  # a bit a state: expanded
    for cells in goal_states(abstraction, codes):
        dist[_rank(cells, n, k, combos, weights)] = 0
    stack = np.zeros(1 << 16, dtype=np.int64)
    counters = np.zeros(3, dtype=np.int64)
    for depth in range(UNREACHED - 1):
        counters[SCAN] = counters[TOP] = 0
        while not layer(
            depth,
            counters,
            dist,
            done,
            stack,
            n,
            k,
            e,
            combos,
            weights,
            binom,
            ops,
            starts,
            grouped,
            group_starts,
            additive,
        ):
            stack = np.concatenate([stack, np.zeros_like(stack)])
        limits.check(0, stored=False, at="building pattern databases")
        if not (dist == depth + 1).any():
            break
    else:
        raise ValueError("a pattern's distances pass 254 moves")  # said as a refusal by the caller
    least: bytes = dist.reshape(-1, combos).min(axis=1).tobytes()
    return least


def _rank(cells: list[int], n: int, k: int, combos: int, weights: np.ndarray) -> int:
    """As `kernel.patterns.build._rank`, for the few goal states."""
    placement = combination = met = j = 0
    seen: list[int] = []
    for c in range(n):
        v = cells[c]
        if 1 <= v <= k:
            i = v - 1
            placement += (c - sum(1 for b in seen if b < i)) * int(weights[i])
            seen.append(i)
            met += 1
        elif v == 0:
            j += 1
            combination += comb(c - met, j)
    return placement * combos + combination


def _about(made: PatternSet, seconds: float, built: bool) -> str:
    sizes = "-".join(str(len(t.codes)) for t in made.tables)
    how = "added" if made.additive else "the largest"
    where = f"built in {seconds:.1f} s" if built else "read from the cache"
    return f"pattern databases {sizes} ({how}), {made.size / 1e6:.1f} MB, {where}"


# ---- the tables kept on disk


READ_HERE = 2  # tables this process keeps in memory once read or built (a program that solves many positions)
_read_here: dict[str, PatternSet] = {}


def cached(key: str) -> PatternSet | None:
    """The tables kept under this key, or None: none kept, or a file that is not sound (a
    link, another user's, cut short, not what its header says) is not read. Tables read or
    built in this process are kept in it too (the last `READ_HERE`): a program that solves
    many positions of one puzzle reads them once. PUZINT_KEEP_PATTERNS=0 keeps none anywhere."""
    if not _kept():
        return None
    if key in _read_here:
        return _read_here[key]
    made = _read(key)
    if made is not None:
        _keep_here(key, made)
    return made


def _keep_here(key: str, made: PatternSet) -> None:
    _read_here[key] = made
    while len(_read_here) > READ_HERE:
        del _read_here[next(iter(_read_here))]


def _read(key: str) -> PatternSet | None:
    path = _path(key, make=False)
    if path is None:
        return None
    try:
        data = read_own_file(path, most_bytes=1 << 31)
    except UnusableFile as exc:
        warn(f"the pattern databases are not kept ({exc})", "patterns")
        return None
    if data is None:
        return None
    head, _, body = data.partition(b"\n")
    try:
        header = json.loads(head.decode("utf-8"))
        if header.get("version") != FILE_VERSION or hashlib.sha256(body).hexdigest() != header["sha256"]:
            return None
        tables, at = [], 0
        for codes, cells, size in header["tables"]:
            tables.append(PatternTable(tuple(int(c) for c in codes), int(cells), body[at : at + size]))
            at += size
        if at != len(body):
            return None
        made = PatternSet(tuple(tables), bool(header["additive"]))
    except (ValueError, KeyError, TypeError):
        return None
    return PatternSet(made.tables, made.additive, _about(made, 0.0, built=False))


def keep(key: str, made: PatternSet) -> None:
    if _kept():
        _keep_here(key, PatternSet(made.tables, made.additive, _about(made, 0.0, built=False)))
    path = _path(key, make=True)
    if path is None:
        return
    body = b"".join(t.distances for t in made.tables)
    header = {
        "version": FILE_VERSION,
        "additive": made.additive,
        "tables": [[list(t.codes), t.cells, len(t.distances)] for t in made.tables],
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    try:
        write_file(path, json.dumps(header).encode() + b"\n" + body, mode=0o600)
    except CannotWrite as exc:
        warn(f"the pattern databases are not kept ({exc})", "patterns")


def _kept() -> bool:
    return os.environ.get("PUZINT_KEEP_PATTERNS", "1") != "0"


def _path(key: str, make: bool) -> Path | None:
    """The file of a key, in `patterns/` beside the kernel's cache (checked as it is)."""
    from ..kernel.where import cache_base

    if not _kept():
        return None
    base = cache_base()
    if base is None:
        return None
    folder = base / "patterns"
    if not make and not os.path.lexists(folder):
        return None
    try:
        with contextlib.suppress(FileExistsError):
            folder.mkdir(mode=0o700, parents=True)
        problem = unsafe_folder(folder)
    except OSError as exc:
        problem = f"{exc.filename or folder}: {exc.strerror or exc}"
    if problem is not None:
        warn(f"the pattern databases are not kept ({problem})", "patterns")
        return None
    return folder / f"{key}.pdb"


def key(abstraction: Abstraction, groups: tuple[tuple[int, ...], ...]) -> str:
    """The tables' name: what they are built from (the moves, the goal, the pieces kept), so
    that two specs with the same puzzle share them and a changed spec never reads stale ones."""
    digest = hashlib.sha256()
    for part in (FILE_VERSION, abstraction.reversed_moves, abstraction.goal, abstraction.empties, groups):
        digest.update(repr(part).encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]
