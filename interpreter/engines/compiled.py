"""The compiled kernel as an engine: which questions its searches answer on which puzzles
(each refusal a sentence), and the search that answers each. The searches are numba code in
`kernel/`; nothing there is imported until a search runs, so that start-up stays small."""

from __future__ import annotations

import time
from collections.abc import Iterator

from .. import kernel
from ..compiler import CompiledPuzzle
from ..compiler.families import TileFamily
from ..compiler.symmetry import Element
from ..search import Limits, SearchResult
from ..search.fill import first_and_whether_unique
from ..search.limits import COMPILING_METHOD, LimitReached, stop_reason
from ..search.result import LIMIT, SOLVED
from .base import HandOver, Path
from .objective import best_solutions
from .query import Query
from .symmetric import candidates, count_up_to_symmetry

FILL_SEARCH = "fill search, compiled"
EXACT_COVER = "exact cover, compiled"
PYTHON_ONLY = "every shortest solution and trajectories are found in Python; the kernel runs one search"


class CompiledEngine:
    name = "compiled"
    summary = "the compiled kernel (numba): the same searches, many times faster on large puzzles"

    def why_not(self, compiled: CompiledPuzzle, query: Query) -> str | None:
        if compiled.filling is not None:
            return self._why_not_fill(compiled, query)
        if query.trajectories or (query.listing and query.mode != "all"):
            return PYTHON_ONLY
        if query.from_goal and not compiled.undirected:
            return (
                "the kernel reaches from the goal only where every move is undone by a move "
                "(it runs moves forwards); Python runs them backwards"
            )
        if query.mode == "cheapest":
            if query.reach:
                return "--reach with `search cheapest` is answered in Python (the layers, then the cheapest solution)"
            if query.count and compiled.symmetry is not None:
                return "counting the cheapest solutions up to symmetry runs in Python"
            return kernel.why_not(compiled, depth_first=True)  # on the machine, states of any size
        if query.mode == "all" and not query.layered and compiled.estimate is not None:
            return "the heuristic orders the walk of every goal state, which runs in Python"
        if query.mode in ("any", "all") and not query.layered:
            return kernel.why_not(compiled, depth_first=True)  # on the machine, states of any size
        if query.by_astar(compiled):
            if compiled.estimate is None:
                return "A* needs a `heuristic` line in the spec"
            return kernel.why_not(compiled, depth_first=True)  # the machine runs the estimate
        if query.method == "idastar" and not query.layered and query.mode == "shortest":
            if compiled.estimate is None:
                return "IDA* needs a `heuristic` line in the spec"
            return kernel.why_not(compiled, depth_first=True)
        if query.counts_from_both_ends(compiled) and query.method == "bidirectional":
            why = _why_not_both_ends(compiled)
            if why is not None and _why_not_layers(compiled, query) is None:
                why += " (--method bfs counts layer by layer on the kernel)"
            return why
        if _from_both_ends(compiled, query):
            why = _why_not_both_ends(compiled)
            if why is not None and query.method == "bidirectional" and _why_not_layers(compiled, query) is None:
                why += " (--method bfs runs it on the kernel)"
            return why
        if not query.layered and query.method not in ("bfs", "auto"):
            return (
                f"--method {query.method} runs in Python; the kernel searches breadth first, from both ends or with A*"
            )
        return _why_not_layers(compiled, query)

    def why_not_from_both_ends(self, compiled: CompiledPuzzle) -> str | None:
        """Why the kernel cannot search this puzzle from both ends (None: it can), where the
        Python engine can: it then searches breadth first from the start, the same answer
        from many more states."""
        return _why_not_both_ends(compiled)

    def _why_not_fill(self, compiled: CompiledPuzzle, query: Query) -> str | None:
        if not kernel.installed():
            return "numba is not installed (pip install numba)"
        if kernel.jit_disabled():
            return "NUMBA_DISABLE_JIT is set, and the kernel runs only compiled by numba"
        if query.layered:
            return "the partial fillings are counted by the state-space searches, in Python"
        if query.listing or query.trajectories or query.mode not in ("any", "all"):
            return "the kernel's fill search finds fillings, not paths of moves"
        if compiled.puzzle.safety:
            return "safety rules hold of every partial filling, which the fill search does not see"
        if compiled.tiling is not None:
            return None  # the exact cover says every tiling
        from ..compiler.families.fill import Inexpressible
        from ..kernel.fill.fill_model import translate  # made once per puzzle, and kept for the search

        try:
            translate(compiled)
        except Inexpressible as exc:
            return exc.reason(compiled.puzzle.source, "the kernel's fill search")
        return None

    def compiled_already(self, compiled: CompiledPuzzle, query: Query) -> bool:
        """Whether the kernel's cache holds the code this search runs on (see
        `kernel.compiled_for`): else its first call compiles it."""
        return kernel.compiled_for(compiled, machine=not _by_tables(compiled, query))

    def search(self, compiled: CompiledPuzzle, query: Query, limits: Limits) -> SearchResult:
        """The kernel's search for the question; a limit met while the kernel is compiled (the
        first time: half a minute) ends it with nothing searched. What the kernel cannot
        answer exactly once it runs is handed over (HandOver)."""
        started = time.monotonic()
        if compiled.filling is not None:  # the fill search alone: the moves machine is not loaded
            visited = [0]
            method = EXACT_COVER if compiled.tiling is not None else FILL_SEARCH
            filled = first_and_whether_unique(_fillings(compiled, limits, visited), visited, method)
            filled.seconds = time.monotonic() - started
            return filled
        from ..kernel.searches.breadth_first import NotExact

        kernel.announce(compiled, limits, machine=not _by_tables(compiled, query))
        result: SearchResult | None = None
        try:
            result = _search(compiled, query, limits)
        except NotExact as exc:
            raise HandOver(exc.why) from None
        except (LimitReached, KeyboardInterrupt) as exc:
            result = SearchResult(LIMIT, 0, limit_reason=stop_reason(exc), method=COMPILING_METHOD)
        result.seconds = time.monotonic() - started
        return result

    def goal_states(self, compiled: CompiledPuzzle, limits: Limits, visited: list[int], moves: bool) -> Iterator[Path]:
        if compiled.filling is not None:
            return _fillings(compiled, limits, visited, moves)
        from ..kernel.searches import depth

        kernel.announce(compiled, limits)
        return depth.all_goal_states(compiled, limits, visited, moves=moves)

    def statistics(self) -> dict[str, object] | None:
        return None

    def count_goal_states(self, compiled: CompiledPuzzle, limits: Limits, counter: list[int]) -> None:
        if compiled.filling is not None and compiled.puzzle.objective is not None:
            visited = [0]
            try:
                for _ in _fillings(compiled, limits, visited, moves=False):  # kept to the best
                    counter[1] += 1
            finally:
                counter[0] = visited[0]
            return
        if compiled.filling is not None:
            visited, counted = [0], [0]
            try:
                for _ in _walk_fillings(compiled, limits, visited, counted):
                    pass
            finally:
                counter[0], counter[1] = visited[0], counted[0]
            return
        from ..kernel.searches import depth

        kernel.announce(compiled, limits)
        depth.count_goal_states(compiled, limits, counter)


def _walk_fillings(
    compiled: CompiledPuzzle, limits: Limits, visited: list[int], counted: list[int] | None = None
) -> Iterator[list[int]]:
    """The kernel's fill search on a filling (each solution's value indices), its exact cover
    on a tiling (each tiling's placements); none yielded where `counted` counts them."""
    tiling = compiled.tiling
    kernel.announce_fill(limits, "exact cover" if tiling is not None else "fill search")
    if tiling is not None:
        from ..kernel.fill.cover import CoverKernel

        return CoverKernel(tiling).walk(limits, visited, counted)
    from ..kernel.fill.fill import model_of

    return model_of(compiled).walk(limits, visited, counted)


def _fillings(compiled: CompiledPuzzle, limits: Limits, visited: list[int], moves: bool = True) -> Iterator[Path]:
    """A filling's (or a tiling's) solutions, each as the state-space walk's path to it
    (without `moves`: its last step alone); with an objective, the best of them, once the
    kernel has found every one."""
    return iter(best_solutions(compiled, _every_filling(compiled, limits, visited, moves)))


def _every_filling(compiled: CompiledPuzzle, limits: Limits, visited: list[int], moves: bool) -> Iterator[Path]:
    family = compiled.filling
    if isinstance(family, TileFamily):
        lay = family.path if moves else family.final
        for chosen in _walk_fillings(compiled, limits, visited):
            yield lay(compiled.start, chosen)
        return
    assert family is not None
    problem = family.problem(compiled.start)
    fill = problem.path if moves else problem.final
    for indices in _walk_fillings(compiled, limits, visited):
        yield fill([var.values[i] for var, i in zip(family.vars, indices, strict=True)])


def _search(compiled: CompiledPuzzle, query: Query, limits: Limits) -> SearchResult:
    from ..kernel.searches import by_width

    group = compiled.symmetry
    if query.mode == "any" and not query.layered:
        from ..kernel.searches.any_solution import any_solution

        return any_solution(compiled, limits, symmetric=group is not None and group.checked and group.keeps_goal)
    if query.mode == "cheapest":
        from ..kernel.searches.best_first import cheapest

        estimate = compiled.estimate is not None and not query.count and query.method != "bfs"
        return cheapest(compiled, limits, estimate, query.count)
    if query.by_astar(compiled):
        return by_width.astar(compiled, limits)
    if query.method == "idastar":
        from ..kernel.searches.idastar import idastar

        return idastar(compiled, limits)
    if _from_both_ends(compiled, query):
        from ..kernel.searches import bidirectional

        return bidirectional.count(compiled, limits) if query.count else bidirectional.shortest(compiled, limits)
    if not query.layered:
        return by_width.shortest(compiled, limits)
    if query.from_goal:
        return by_width.to_goal(compiled, limits)
    return _layered(compiled, query, limits)


def _layered(compiled: CompiledPuzzle, query: Query, limits: Limits) -> SearchResult:
    """Counts and reachable states, and the count up to symmetry (Burnside's, as in Python,
    each symmetry's fixed solutions counted by the kernel)."""
    from ..kernel.searches import by_width
    from ..kernel.searches.breadth_first import check_moves

    group = compiled.symmetry
    unchecked = [(sym.name, sym.pos, sym) for sym, _ in group.generators] if group and not group.checked else []
    result = by_width.explore(compiled, limits, query.count, query.reach, orbits=True, generators=unchecked)
    if group is not None and query.count and result.length is not None and result.count is not None:

        def checked() -> list[Element]:
            if unchecked:
                check_moves(compiled, limits, unchecked)
            return candidates(compiled)  # goals given by conditions: the kernel declines (_why_not_layers)

        def fixed(element: Element) -> tuple[int | None, int | None]:
            found = by_width.explore(compiled, limits, count=True, keep=element)
            return (found.length, found.count) if found.status == SOLVED else (None, None)

        count_up_to_symmetry(compiled, limits, result, result.length, checked, fixed)
    return result


def _by_tables(compiled: CompiledPuzzle, query: Query) -> bool:
    """Whether the search runs on word tables (else on the machine): what `announce` says."""
    return _from_both_ends(compiled, query) or (
        not query.by_astar(compiled) and query.method in ("auto", "bfs") and query.mode not in ("any", "cheapest")
    )


def _from_both_ends(compiled: CompiledPuzzle, query: Query) -> bool:
    """Whether the kernel searches the shortest solution from both ends, or counts the
    shortest solutions from both ends: where it is asked for by name, or chosen by default and
    the kernel can (else it searches or counts breadth first from the start, which finds the
    same answer: a method nobody asked for is never a reason to refuse)."""
    if not (query.by_bidirectional(compiled) or query.counts_from_both_ends(compiled)):
        return False
    return query.method == "bidirectional" or _why_not_both_ends(compiled) is None


def _why_not_layers(compiled: CompiledPuzzle, query: Query) -> str | None:
    """Why the kernel's breadth-first searches (the shortest solution, counts, reachable
    states: kernel.searches.breadth_first, and kernel.searches.wide for states of several
    words) cannot run this puzzle (None: they can). Counts and reachable states are also given up to the puzzle's
    symmetries, whose images the kernel has as tables of the cells: places and counters are
    left to Python; so is a goal given by conditions (which symmetries keep it is found there)."""
    if query.count and compiled.symmetry is not None and compiled.puzzle.goal.conditions:
        return "counting solutions up to symmetry where the goal is given by conditions, which runs in Python"
    one_word = kernel.why_not(compiled)
    if one_word is None:
        if query.layered and compiled.symmetry is not None and compiled.layout.size != compiled.cells:
            return "symmetries of a puzzle with places or counters, which the kernel counts only in Python"
        return None
    unfit = kernel.why_not(compiled, depth_first=True)
    if unfit is not None:
        return unfit
    if compiled.symmetry is not None:
        return f"{one_word}, with symmetries"
    return None


def _why_not_both_ends(compiled: CompiledPuzzle) -> str | None:
    """Why the kernel's bidirectional search (kernel.searches.bidirectional) cannot run this
    puzzle."""
    if compiled.goal_state is None or not compiled.invertible:
        return "bidirectional search needs a goal that is one state and moves that can be undone"
    from ..kernel.tables.tables import why_not_tables

    plain = why_not_tables(compiled)
    if plain is not None:
        return f"the kernel searches from both ends only plain moves on cells, not {plain}"
    return kernel.why_not(compiled)
