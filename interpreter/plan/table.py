"""The plan as data: for each kind of question, which engines answer it and how they are run.

A row says which engines may run beside Python for a kind of question, in order of
preference; `plan` keeps those that can answer this question on this puzzle (each engine
says why not, in one sentence) and says how they run:

- where an engine is asked by name (`--engine NAME`, `--workers`, `--cluster`), it runs alone,
  and is refused with its reason where it cannot answer;
- where the engine that answered this question first the last time won by a clear margin
  (`memory`), it runs alone; so does the kernel for a search guided by tables derived from
  the spec, where it answered one in this process before;
- else Python runs first (a small search ends before any other engine could even load), and,
  on a machine with a second core, each engine beside it runs in a forked copy of this
  process from DELAY seconds on, as many at once as there are cores beside Python's (the
  next when one drops out or Python stops): the first answer is the answer (`runner`). Python gives way
  once one of them has loaded and begun its search, or GIVE_WAY seconds after the first of
  them started; on one core, Python tries for FIRST_TRY seconds and the first engine beside
  it takes the search over.

The runner (`plan.runner`) carries the plan out; nothing here runs a search. The model is Fast
Downward's portfolios: a portfolio is data, read by one mechanism.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from ..compiler import CompiledPuzzle
from ..engines import Query, RunOptions, registry
from ..errors import NOWHERE, Diagnostic, SpecError

DELAY = 0.1  # the copies are forked once Python has searched this long (see docs/performance-logic.md, Start-up)
GIVE_WAY = 0.3  # Python stops once an engine beside it has run (loading, searching) this long
FIRST_TRY = 0.3  # on one core: Python's try, after which the first engine beside it takes over
MARGIN = 2.0  # an engine is remembered where every other was given MARGIN times its time and had not answered


@dataclass(frozen=True)
class Row:
    """A kind of question (`kind`, in words; `applies` tells it), the engines that may run
    beside Python for it (`beside`, in order of preference), and why they are those."""

    kind: str
    applies: Callable[[CompiledPuzzle, Query], bool]
    beside: tuple[str, ...]
    why: str


ROWS: tuple[Row, ...] = (
    Row(
        "every shortest solution, or their trajectories",
        lambda compiled, query: query.listing or query.trajectories,
        (),
        "the graph of every shortest path is kept in Python",
    ),
    Row(
        "a logic puzzle (a filling, a tiling)",
        lambda compiled, query: compiled.filling is not None,
        ("compiled", "cpsat"),
        "the kernel's fill search and CP-SAT are each far faster than the other on some puzzles "
        "(sums of many cells: the kernel; deductions: CP-SAT): both run, the first answer is the answer",
    ),
    Row(
        "a puzzle of moves",
        lambda compiled, query: True,
        ("compiled",),
        "the kernel is many times faster on a large search; Python answers a small one before the kernel has loaded",
    ),
)


@dataclass(frozen=True)
class Plan:
    """How a question is answered: one engine `alone` (and why), or Python first and the
    engines `beside` it (none: Python alone). The engines beside are the row's candidates:
    each says in its own copy whether it can answer (asking costs a tenth of a second on some
    puzzles, which a small search answered by Python should not pay)."""

    row: Row | None
    alone: str | None = None
    why_alone: str = ""
    beside: tuple[str, ...] = ()

    @property
    def engines(self) -> tuple[str, ...]:
        """Every engine the plan may run, in order."""
        return (self.alone,) if self.alone is not None else ("python", *self.beside)


ASKED = "asked for by name"
PREFERRED = "named by PUZINT_ENGINE"


def row_for(compiled: CompiledPuzzle, query: Query) -> Row:
    return next(row for row in ROWS if row.applies(compiled, query))


def plan(
    compiled: CompiledPuzzle, query: Query, options: RunOptions, remembered: str | None = None, why: str = ""
) -> Plan:
    """The plan for this question: `options.engine` asked by name runs alone (refused, with its
    reason, where it cannot answer); `remembered` (an engine that won this question's race by
    a clear margin, or the kernel `memory.tables_on_the_kernel` names: `why`) runs alone where
    it can still answer; else Python first and the
    row's engines beside it. PUZINT_ENGINE, if set to an engine's name, is the engine `auto`
    prefers (Python answers what it does not)."""
    asked = options.engine
    if asked != "auto":
        reason = registry.engine(asked, options).why_not(compiled, query)
        if reason is not None:
            raise refusal(asked, reason)
        return Plan(None, asked, ASKED)
    preferred = os.environ.get("PUZINT_ENGINE", "auto")
    if preferred in registry.NAMES:
        usable = registry.engine(preferred, options).why_not(compiled, query) is None
        return Plan(None, preferred if usable else "python", PREFERRED)
    row = row_for(compiled, query)
    known = remembered is not None and (remembered == "python" or remembered in row.beside)
    if known and registry.engine(str(remembered), options).why_not(compiled, query) is None:
        return Plan(row, remembered, why)
    return Plan(row, beside=row.beside)


def python_keeps_on(compiled: CompiledPuzzle, query: Query) -> str:
    """Why Python goes on beside an engine that has begun its search, giving way only to its
    answer ('': it gives way as the module says). Python searches from both ends (or counts
    from both ends) where the kernel can search only from the start: the same answer from
    far fewer states (the 4 x 4 puzzle of turning 2 x 2 blocks: Python 452,088 states in
    0.5 s, the kernel's breadth-first search past 10,000,000), though the kernel's own
    search is sometimes the faster (Dudeney's bishops: 1.0 s against 2.0 s), so both run."""
    if not (query.by_bidirectional(compiled) or query.counts_from_both_ends(compiled)):
        return ""
    why = registry.COMPILED.why_not_from_both_ends(compiled)
    return "" if why is None else f"python searches from both ends, the kernel only from the start ({why})"


def answering(compiled: CompiledPuzzle, query: Query, options: RunOptions, names: tuple[str, ...]) -> str | None:
    """The first of `names` that can answer the question (None: none can)."""
    return next((name for name in names if registry.engine(name, options).why_not(compiled, query) is None), None)


def refusal(engine: str, why: str) -> SpecError:
    return SpecError([Diagnostic(NOWHERE, f"--engine {engine} cannot run this: {why}")])
