"""Every engine, described once: its name (one, used everywhere: `--engine NAME`, the JSON's
`engine`, the memory of races), what it is, what it answers, and whether `auto` may run it
beside Python. `--engine help`, `puzint run --help`, the engines remembered and the docs'
table all come from here (docs/architecture.md, "Engines")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import Engine
from .compiled import CompiledEngine
from .cpsat import SolverEngine
from .options import RunOptions
from .python import PythonEngine
from .workers import WorkersEngine


@dataclass(frozen=True)
class Description:
    """An engine's row: `name`, what it is (`summary`, one line), what it answers (`answers`),
    whether `auto` may run it beside Python (`races`), and how it is made for a run."""

    name: str
    summary: str
    answers: str
    races: bool
    make: Callable[[RunOptions], Engine]


PYTHON = PythonEngine()
COMPILED = CompiledEngine()
SOLVER = SolverEngine()

DESCRIPTIONS: tuple[Description, ...] = (
    Description(
        "python",
        "the reference searches, in Python",
        "every question, on every puzzle; the others are checked against it",
        False,  # it is the one `auto` runs first, in the run's own process
        lambda options: PYTHON,
    ),
    Description(
        "compiled",
        "the compiled kernel (numba): the same searches, many times faster on large puzzles",
        "every search of moves but the listing of every solution, and a logic puzzle's fillings",
        True,
        lambda options: COMPILED,
    ),
    Description(
        "cpsat",
        "OR-tools' CP-SAT constraint solver, where propagation decides",
        "logic puzzles (fillings, tilings) whose rules its model can say",
        True,
        lambda options: SOLVER,
    ),
    Description(
        "workers",
        "Dask's workers (this machine's cores, or a cluster's), on the kernel",
        "walks split into subtrees and breadth-first layers, where --workers or --cluster asks",
        False,  # only where asked: it starts processes, or uses a cluster
        lambda options: WorkersEngine(options.workers),
    ),
)

NAMES: tuple[str, ...] = tuple(d.name for d in DESCRIPTIONS)
RACING: tuple[str, ...] = tuple(d.name for d in DESCRIPTIONS if d.races)


def described(name: str) -> Description:
    return next(d for d in DESCRIPTIONS if d.name == name)


def engine(name: str, options: RunOptions | None = None) -> Engine:
    """The engine called `name`, for a run with these options."""
    return described(name).make(options or RunOptions())


def table() -> list[str]:
    """The engines as a Markdown table (docs/architecture.md shows it; a test checks it is this)."""
    lines = ["| engine | what it is | what it answers | run beside Python by `auto` |", "|---|---|---|---|"]
    for d in DESCRIPTIONS:
        lines.append(f"| `{d.name}` | {d.summary} | {d.answers} | {'yes' if d.races else 'no'} |")
    return lines
