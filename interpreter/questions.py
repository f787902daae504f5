"""The questions a run may ask of a spec, and the combinations that are refused because one
part of them would change nothing or contradict another.

The command line and the API ask the same questions (`--count` and `count=True`), so they
refuse the same combinations, for the same reasons: each says it in its own words, with a
`Spelling` that names its options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import heuristics
from .compiler import CompiledPuzzle
from .engines import Query, RunOptions, registry

Spelling = Callable[[str, str], str]  # (option, its value) -> how the caller writes it


def command_line(option: str, value: str) -> str:
    """`--count`, `--limit K`, `--method bfs`."""
    return {"limit": "--limit K"}.get(option) or f"--{option.replace('_', '-')} {value}".rstrip()


def keywords(option: str, value: str) -> str:
    """`count=True`, `limit=...`, `method="bfs"`."""
    return {"limit": "limit"}.get(option) or (f"{option}={value!r}" if value else f"{option}=True")


@dataclass(frozen=True)
class Question:
    """What the caller asks of a spec on top of its own `search` line."""

    count: bool = False
    reach: bool = False
    all: bool = False
    limit: int | None = None
    method: str = "auto"
    distinct: str | None = None
    from_goal: bool = False

    def listing(self, mode: str) -> bool:
        """Whether every solution is listed (asked for, or the spec's own `search all`)."""
        return self.all or (mode == "all" and not (self.reach or self.distinct))


@dataclass(frozen=True)
class Asked:
    """A question of one compiled spec, worked out once (`ask`) and handed down: what is
    searched for (`mode`), whether every solution is listed (`listing`: a `search all` walk
    where `walk`), what the engines are asked (`query`) and how they run (`options`)."""

    question: Question
    options: RunOptions
    mode: str
    listing: bool
    query: Query

    @property
    def walk(self) -> bool:
        """Every goal state of a `search all` spec, walked (listed, or counted)."""
        return self.listing and self.mode == "all"


def ask(compiled: CompiledPuzzle, question: Question, options: RunOptions) -> Asked:
    """The question as the rest of puzint takes it (see `refusal` for what may be asked)."""
    mode = asked_mode(compiled, question)
    return Asked(question, options, mode, question.listing(mode), query_of(compiled, question))


def asked_mode(compiled: CompiledPuzzle, question: Question) -> str:
    """What the spec is searched for: its `search` directive, but a filling's solutions are
    counted as every solution is (`--count` on a filling that searches `any`)."""
    if compiled.filling is not None and question.count:
        return "all"
    return compiled.puzzle.search


def refusal(compiled: CompiledPuzzle, question: Question, options: RunOptions, spell: Spelling) -> str | None:
    """Why this question cannot be asked of this spec as it stands, with these options (None:
    it can)."""
    mode = asked_mode(compiled, question)
    listing = question.listing(mode)
    if question.reach and question.all:
        return f"{spell('reach', '')} and {spell('all', '')} ask two different questions: give one of them"
    objective = compiled.puzzle.objective
    if objective is not None and (question.reach or question.distinct):
        asked = spell("reach", "") if question.reach else spell("distinct", question.distinct or "")
        kind = "maximize" if objective.maximize else "minimize"
        return (
            f"{asked} asks of the partial fillings (the filling as moves), and `{kind}` chooses among "
            f"complete ones: ask for the solutions with the {objective.best} {objective.name} (the default), "
            f"or {spell('count', '')}"
        )
    if question.distinct == "trajectories" and compiled.filling is not None:
        return (
            f"{spell('distinct', 'trajectories')} follows pieces from cell to cell, and a logic puzzle "
            "places its pieces without moving any: ask for its solutions (the default) or "
            f"{spell('count', '')}"
        )
    if question.from_goal:
        why = _from_goal_refused(compiled, question, mode, spell)
        if why is not None:
            return why
    if question.limit is not None and not listing:
        return f"{spell('limit', '')} stops a listing of all solutions: it goes with {spell('all', '')}"
    if listing and question.count and mode != "all":
        return (
            f"{spell('count', '')} counts the shortest solutions and {spell('all', '')} lists them: "
            "give one of them (the listing ends with the count)"
        )
    if question.method != "auto":
        why = _method_refused(question, mode, listing, spell("method", question.method))
        if why is not None:
            return why
    if question.method in ("astar", "idastar") and compiled.estimate is None:
        method = spell("method", question.method)
        if options.heuristic == "spec":
            return f"{method} needs a `heuristic` line in the spec"
        why = heuristics.underivable(compiled) if options.heuristic == "auto" else None
        if why is not None:
            return f"{method} needs a heuristic: the spec has no `heuristic` line, and none can be derived: {why}"
    if question.method == "bidirectional" and (compiled.goal_state is None or not compiled.invertible):
        return (
            f"{spell('method', 'bidirectional')} needs a goal that is one state (a goal picture without "
            "wildcards) and moves that can all be undone" + _one_way(compiled)
        )
    if question.method == "bidirectional" and question.count and compiled.symmetry is not None:
        return (
            f"{spell('method', 'bidirectional')} counts from both ends, and the count up to the spec's "
            f"symmetry needs the layers from the start: ask without {spell('method', 'bidirectional')}"
        )
    if options.heuristic != "auto" or options.patterns:
        query = query_of(compiled, question)
        why = heuristics.refusal(compiled, options.heuristic, query.guided, query.method, options.patterns)
        if why is not None:
            if options.patterns:
                return why.replace("--patterns", spell("patterns", options.patterns), 1)
            return f"{spell('heuristic', options.heuristic)}: {why}"
    if options.engine not in ("auto", "python") and options.engine in registry.NAMES:
        unfit = registry.engine(options.engine, options).why_not(compiled, query_of(compiled, question))
        if unfit is not None:
            return f"{spell('engine', options.engine)} cannot run this: {unfit}"
    return None


def judged_by_rules_alone(compiled: CompiledPuzzle, asking: str) -> str | None:
    """Why a game or a solution file replayed (`asking`), judged by the rules alone, is refused
    on this spec: with an objective (`maximize`), a filling that keeps the rules need not be
    one that is asked for, and "solved" of it would leave the objective out (None: it is not)."""
    objective = compiled.puzzle.objective
    if objective is None:
        return None
    kind = "maximize" if objective.maximize else "minimize"
    return (
        f"{asking} judges a filling by its rules, and this spec asks with `{kind}` for those of the "
        f"{objective.best} {objective.name}: puzint run lists them"
    )


def _one_way(compiled: CompiledPuzzle) -> str:
    return f" (move '{compiled.one_way}' cannot be)" if compiled.one_way is not None else ""


def _from_goal_refused(compiled: CompiledPuzzle, question: Question, mode: str, spell: Spelling) -> str | None:
    from_goal = spell("from_goal", "")
    alone = not (question.count or question.all or question.distinct or mode in ("count", "cheapest"))
    if not (question.reach or mode == "reach") or not alone:
        return f"{from_goal} explores backwards from the goal: it goes with {spell('reach', '')} alone"
    if compiled.filling is not None:
        return f"{from_goal} explores moves backwards: a logic puzzle has no moves to run back"
    if compiled.goal_state is None:
        return f"{from_goal} starts from the goal: it needs a goal that is one state (a goal picture without wildcards)"
    if not compiled.invertible:
        return f"{from_goal} runs the moves backwards: it needs moves that can all be undone{_one_way(compiled)}"
    return None


def _method_refused(question: Question, mode: str, listing: bool, method: str) -> str | None:
    picks = f"{method} picks how one shortest solution is searched; "
    if listing:
        if mode == "all":
            return picks + "all solutions are listed depth first"
        return picks + "every shortest solution is listed from the graph of all shortest paths"
    counting = question.count or mode == "count"
    shortest = mode in ("shortest", "count")
    if counting and shortest and not question.reach and question.method in ("bfs", "bidirectional"):
        return None  # counted layer by layer from the start, or from both ends
    if counting or question.reach or mode in ("count", "reach"):
        return picks + "counting and reaching explore every layer"
    if mode == "any":
        return f"{method} does not apply: this spec asks for any solution (`search any`), found depth first"
    return None


def query_of(compiled: CompiledPuzzle, question: Question) -> Query:
    """The question as the engines take it (`engines.Query`)."""
    mode = asked_mode(compiled, question)
    listing = question.listing(mode)
    if listing and mode == "all":  # the walk of a `search all` spec's goal states, listed or counted
        return Query.of(compiled, mode="all")
    return Query.of(
        compiled,
        question.count,
        question.reach,
        question.method,
        listing=listing,
        trajectories=bool(question.distinct),
        from_goal=question.from_goal,
    )
