"""The compiled kernel gives the Python engine's answers: every case of every spec's
expectations that the kernel can run is run on both, and everything must be identical — the
status, the states stored, the length, the counts, the reachable states and goals, and the
solution itself, move by move (both searches are deterministic and expand in the same order).
Each breadth-first shortest search (`--method bfs`) of those puzzles is compared too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from puzint.engines import RunOptions
from puzint.errors import SpecError
from puzint.expectations import load_cases
from puzint.kernel import installed
from puzint.runner import kernel_unfit, load, search
from puzint.search import Limits
from puzint.search.result import SearchResult

from tests.conftest import compiled_from

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

SPECS = sorted((Path(__file__).resolve().parents[2] / "specs").glob("*.puz"))
# Questions on which Python's own search takes half a minute to minutes (1,587,600 bishops'
# positions; millions of amida states breadth first): left to `pytest -m slow`. Every run
# compares the same searches of the same specs on their other cases.
SLOW = {
    "bishops[attack=false]-auto",
    "bishops[attack=false]-bfs",
    "amida[bottom=GDIKEQAPFTJRBMLNHCSO]-bfs",
    "amida[bottom=JFBHIADEGC]-bfs",
}
QUESTIONS = []
for spec in SPECS:
    for case in load_cases(spec):
        want = set(case.expected)
        count = bool(want & {"count", "count_up_to_symmetry"})
        reach = bool(want & {"reachable", "reachable_up_to_symmetry", "reachable_goals"})
        if want & {"solutions", "solutions_in_all"}:
            continue
        for method in ["auto", "bfs"] if not (count or reach) else ["auto"]:
            name = f"{spec.stem}[{case.title()}]-{method}"
            marks = [pytest.mark.slow] if case.slow or name in SLOW else []
            QUESTIONS.append(pytest.param(spec, case.params, count, reach, method, marks=marks, id=name))


def answer(result: SearchResult) -> dict[str, Any]:
    return {
        "status": result.status,
        "states": result.states,
        "length": result.length,
        "count": result.count,
        "count_up_to_symmetry": result.count_up_to_symmetry,
        "reachable": result.reachable,
        "reachable_up_to_symmetry": result.reachable_up_to_symmetry,
        "reachable_goals": result.reachable_goals,
        "layers": result.layers,
        "farthest": result.farthest,
        "path": result.path,
        "limit": result.limit_reason,
    }


@pytest.mark.parametrize(("spec", "params", "count", "reach", "method"), QUESTIONS)
def test_the_kernel_answers_as_python_does(
    spec: Path, params: dict[str, str], count: bool, reach: bool, method: str
) -> None:
    compiled = load(spec, params)
    unfit = kernel_unfit(compiled, count, reach, method, None)
    if unfit is not None:
        pytest.skip(unfit)
    limits = Limits(max_states=5_000_000)
    python = search(compiled, count=count, reach=reach, limits=limits, method=method, engine="python")
    kernel = search(
        compiled, count=count, reach=reach, limits=Limits(max_states=5_000_000), method=method, engine="compiled"
    )
    assert kernel.method.endswith(", compiled")
    if method == "auto" and python.method.startswith("bidirectional") and "bidirectional" not in kernel.method:
        # the kernel cannot search these moves from both ends: it searched breadth first, as Python then does
        python = search(
            compiled, count=count, reach=reach, limits=Limits(max_states=5_000_000), method="bfs", engine="python"
        )
    assert answer(kernel) == answer(python)


def test_the_slow_questions_are_questions() -> None:
    assert {param.id for param in QUESTIONS} >= SLOW


def test_the_kernel_runs_the_puzzles_it_should() -> None:
    """Plain rewrites with no symmetry: the kernel must not quietly decline them."""
    runs = {spec.stem for spec in SPECS if kernel_unfit(load(spec), False, True, "auto", None) is None}
    assert {"frog", "oshidori", "white_black", "eight_puzzle", "amida", "knights", "guarini"} <= runs


@pytest.mark.parametrize("name", ["eight_puzzle", "knights", "lights_out", "frog"])
def test_the_states_that_reach_the_goal_are_python_s(name: str) -> None:
    """Where every move is undone by a move, the kernel reaches forwards from the goal; Python
    runs the moves backwards: the same states at the same distances, and a shortest solution.
    Elsewhere the kernel declines, and says why."""
    compiled = load(SPECS[0].parent / f"{name}.puz")
    python = search(compiled, reach=True, from_goal=True, engine="python")
    unfit = kernel_unfit(compiled, False, True, "auto", None)
    assert unfit is None
    if not compiled.undirected:
        with pytest.raises(SpecError, match="the kernel reaches from the goal only where every move is undone"):
            search(compiled, reach=True, from_goal=True, engine="compiled")
        return
    kernel = search(compiled, reach=True, from_goal=True, engine="compiled")
    assert kernel.method == "layered bfs from the goal, compiled" and kernel.to_goal and python.to_goal
    assert (kernel.status, kernel.length, kernel.reachable, kernel.layers) == (
        python.status,
        python.length,
        python.reachable,
        python.layers,
    )
    assert kernel.farthest is not None and compiled.expand(kernel.farthest)
    state = compiled.start
    for move, after in kernel.path:  # the moves lead from the start to the goal
        assert (after, move) in compiled.expand(state)
        state = after
    assert state == compiled.goal_state


@pytest.mark.parametrize("limit", [1, 100, 5_000])
def test_the_kernel_stops_at_the_state_limit_as_python_does(limit: int) -> None:
    compiled = load(SPECS[0].parent / "eight_puzzle.puz")
    python = search(compiled, reach=True, limits=Limits(max_states=limit), engine="python")
    kernel = search(compiled, reach=True, limits=Limits(max_states=limit), engine="compiled")
    assert kernel.status == python.status == "limit" and kernel.limit_reason == python.limit_reason
    assert limit <= kernel.states <= limit + 4 and limit <= python.states <= limit + 4


def test_a_count_past_64_bits_is_detected() -> None:
    import numpy as np
    from puzint.kernel.tables import core

    states = np.array([5, 5, 7], dtype=np.uint64)
    ways = np.array([2**63, 2**63, 1], dtype=np.uint64)
    mask, value = np.uint64(0xF), np.uint64(5)
    words = core.NO_MACHINE, np.zeros(1, dtype=np.int64)  # no machine program
    assert core.sum_ways(states, ways, 0, 0, 1, *words, mask, value) == (2**63, False)
    assert core.sum_ways(states, ways, 0, 0, 3, *words, mask, value)[1]  # 2**64 does not fit


@pytest.mark.parametrize("method", ["bfs", "auto"])
def test_a_count_past_64_bits_is_left_to_python(monkeypatch: pytest.MonkeyPatch, method: str) -> None:
    """Layer by layer (--method bfs) or from both ends (frog's goal is one state, and its
    moves can be run backwards)."""
    from puzint.kernel.searches import bidirectional, by_width
    from puzint.kernel.searches import breadth_first as kernel_search

    def overflowing(*args: object, **kwargs: object) -> SearchResult:
        raise kernel_search.count_overflow()

    monkeypatch.setattr(by_width, "explore", overflowing)
    monkeypatch.setattr(bidirectional, "count", overflowing)
    compiled = load(SPECS[0].parent / "frog.puz")
    result = search(compiled, count=True, engine="compiled", method=method)
    assert result.count == 2 and not result.method.endswith("compiled")


ONE_WAY = """
puzzle "one way"
board line 5
piece A a
start _ A _ _ _
goal _ _ _ _ A
move go: step A along right
symmetry mirror
"""


@pytest.mark.parametrize(("count", "reach"), [(False, True), (True, False)])
def test_a_symmetry_that_is_not_one_is_set_aside_alike(count: bool, reach: bool) -> None:
    """The answer is given, its figures up to symmetry are not, and both engines say why."""
    from puzint.compiler import compile_puzzle
    from puzint.language.elaborate import elaborate
    from puzint.language.parser import parse

    compiled = compile_puzzle(elaborate(parse(ONE_WAY, "one_way.puz")))
    assert kernel_unfit(compiled, count, reach, "auto", None) is None
    python = search(compiled, count=count, reach=reach, engine="python")
    kernel = search(compiled, count=count, reach=reach, engine="compiled")
    assert answer(kernel) == answer(python) and kernel.symmetry_note == python.symmetry_note
    assert python.count_up_to_symmetry is None and python.reachable_up_to_symmetry is None
    assert python.symmetry_note is not None and python.symmetry_note.startswith("'mirror' is not a symmetry")


COINS_AND_A_ROBOT = """
puzzle "coins and a robot"
board grid 3 x 3
piece H heads
piece T tails
piece R robot
shape pair = (0, 0), (0, 1)
neighbourhood cross = (0, 0), diagonal
start:
    H H T
    T R H
    H T T
goal:
    T T T
    T _ T
    T T R
move flip: toggle H T in pair
move cross: toggle T in cross
move walk: slide R along orthogonal
"""


@pytest.mark.parametrize(("count", "reach"), [(False, True), (True, False), (False, False)])
def test_toggles_of_two_pieces_and_shapes_that_do_not_fit_answer_alike(count: bool, reach: bool) -> None:
    """Toggles the kernel cannot do with one exclusive-or (three pieces, a toggle that
    leaves the robot alone), a shape that does not fit on the last column, a
    neighbourhood cut at the edges, and slides after them, in the spec's order."""
    from puzint.compiler import compile_puzzle
    from puzint.language.elaborate import elaborate
    from puzint.language.parser import parse

    compiled = compile_puzzle(elaborate(parse(COINS_AND_A_ROBOT, "coins.puz")))
    assert kernel_unfit(compiled, count, reach, "bfs" if not (count or reach) else "auto", None) is None
    method = "bfs" if not (count or reach) else "auto"
    python = search(compiled, count=count, reach=reach, method=method, engine="python")
    kernel = search(compiled, count=count, reach=reach, method=method, engine="compiled")
    assert kernel.method.endswith(", compiled")
    assert answer(kernel) == answer(python)
    assert python.states > 5_000  # a search with room to differ


# Listings that Python walks for several seconds (3,856 tours), left to `pytest -m slow`: the
# smaller rings walk the same way in every run
SLOW_LISTINGS = {"number_circle[n=12]"}
LISTINGS = []
for spec in SPECS:
    for case in load_cases(spec):
        if set(case.expected) & {"solutions", "solutions_in_all"}:
            name = f"{spec.stem}[{case.title()}]"
            marks = [pytest.mark.slow] if case.slow or name in SLOW_LISTINGS else []
            LISTINGS.append(pytest.param(spec, case.params, marks=marks, id=name))


def test_the_slow_listings_are_listings() -> None:
    assert {param.id for param in LISTINGS} >= SLOW_LISTINGS


@pytest.mark.parametrize(("spec", "params"), LISTINGS)
@pytest.mark.parametrize("keep", [False, True], ids=["count", "list"])
def test_the_kernel_walks_every_solution_as_python_does(spec: Path, params: dict[str, str], keep: bool) -> None:
    """`search all` specs, depth first: the same states visited, the same solutions (each
    path move by move, in the order found), the same counts, whether only counted or listed."""
    from puzint.kernel import why_not
    from puzint.solutions import enumerate_solutions

    compiled = load(spec, params)
    unfit = why_not(compiled, depth_first=True)
    if unfit is not None:
        pytest.skip(unfit)
    walks = [enumerate_solutions(compiled, Limits(), keep=keep, options=RunOptions(e)) for e in ("python", "compiled")]
    python, kernel = ((w.status, w.count, w.in_all, w.states, w.solutions, w.limit_reason) for w in walks)
    assert walks[1].method.endswith(", compiled")
    assert kernel == python


@pytest.mark.parametrize("limit", [1, 50, 3_000])
def test_the_walk_stops_at_the_state_limit_as_python_does(limit: int) -> None:
    from puzint.solutions import enumerate_solutions

    compiled = load(SPECS[0].parent / "number_circle.puz", {"n": "10"})
    walks = [
        enumerate_solutions(compiled, Limits(max_states=limit), keep=True, options=RunOptions(e))
        for e in ("python", "compiled")
    ]
    python, kernel = ((w.status, w.count, w.states, w.solutions, w.limit_reason) for w in walks)
    assert kernel == python and python[0] == "limit" and python[2] == limit


JUGS_WITH_AN_ESTIMATE = """
puzzle "jugs, guided"
counter S = 0 in 0..5 "small"
counter B = 0 in 0..9 "big"
goal when B == 7
move fill: set ?j = ?j.max
move empty: set ?j = 0
move pour: let k = min(?a, ?b.max - ?b), set ?a = ?a - k, set ?b = ?b + k
heuristic abs(B - 7) / 9
"""


@pytest.mark.parametrize("limit", [None, 3, 20])
def test_the_kernel_searches_with_a_star_as_python_does(limit: int | None) -> None:
    """A* on the machine (counters, lets, a heuristic as bytecode): the same states stored,
    the same solution, and the same stop at a state limit."""
    from puzint.compiler import compile_puzzle
    from puzint.language.elaborate import elaborate
    from puzint.language.parser import parse

    compiled = compile_puzzle(elaborate(parse(JUGS_WITH_AN_ESTIMATE, "jugs.puz")))
    assert kernel_unfit(compiled, False, False, "auto", None) is None
    python, kernel = (search(compiled, limits=Limits(max_states=limit), engine=e) for e in ("python", "compiled"))
    assert kernel.method == "A*, compiled" and python.method == "A*"
    assert answer(kernel) == answer(python)


@pytest.mark.parametrize("limit", [1, 500, 20_000])
def test_the_kernel_searches_from_both_ends_as_python_does(limit: int) -> None:
    """Bidirectional search (frog n=8: forwards, then backwards from the goal) stops at a
    state limit exactly where Python does, and otherwise finds the same solution."""
    compiled = load(SPECS[0].parent / "frog.puz", {"n": "8"})
    python, kernel = (search(compiled, limits=Limits(max_states=limit), engine=e) for e in ("python", "compiled"))
    assert kernel.method == "bidirectional, compiled" and python.method == "bidirectional"
    assert answer(kernel) == answer(python)


COUPLES_SWAPPED = """
puzzle "two couples, and the couples swapped"
board places left, right
group couple = 1..2
piece H husband per couple
piece W wife per couple
carrier boat at left
start at left: everyone
goal at right: everyone
move cross: carry 1..2 in boat
safe everywhere:
    every wife w here: (some husband h here: h.couple == w.couple) or no husband is here
symmetry swap H1 H2 + swap W1 W2
"""


@pytest.mark.parametrize(("count", "reach"), [(False, True), (True, False)])
def test_symmetries_of_places_are_counted_in_python(count: bool, reach: bool) -> None:
    """The kernel's images of states are tables of the cells: with places, a symmetry is not
    one of them, and the kernel must leave the count to Python rather than misjudge it."""
    from puzint.compiler import compile_puzzle
    from puzint.language.elaborate import elaborate
    from puzint.language.parser import parse

    compiled = compile_puzzle(elaborate(parse(COUPLES_SWAPPED, "couples.puz")))
    unfit = kernel_unfit(compiled, count, reach, "auto", None)
    assert unfit is not None and "places or counters" in unfit
    result = search(compiled, count=count, reach=reach, engine="auto")
    assert (result.reachable, result.reachable_up_to_symmetry) == ((18, 12) if reach else (None, None))
    assert (result.count, result.count_up_to_symmetry) == ((None, None) if reach else (8, 4))


@pytest.mark.parametrize("stop", ["limit", "interrupt"])
def test_a_stop_while_the_kernel_compiles_is_reported_cleanly(monkeypatch: pytest.MonkeyPatch, stop: str) -> None:
    """A time limit or Ctrl-C can come while numba compiles the kernel, before the search has
    anything to report (the first compilation takes half a minute)."""
    from puzint.kernel.searches import by_width
    from puzint.search.limits import LimitReached

    def compiling(*args: object, **kwargs: object) -> SearchResult:
        raise LimitReached("time limit of 2 s reached") if stop == "limit" else KeyboardInterrupt

    monkeypatch.setattr(by_width, "shortest", compiling)
    result = search(load(SPECS[0].parent / "eight_puzzle.puz"), method="bfs", engine="compiled")
    assert (result.status, result.states, result.method) == ("limit", 0, "compiling the search kernel")
    assert result.limit_reason == ("time limit of 2 s reached" if stop == "limit" else "interrupted")


CYCLES = """
puzzle "cycles"
board graph a, b, c, d, e
pieces "1234" "tiles"
start 1 2 3 4 _
goal 4 3 2 1 _
move turn: cycle (a b c d)
move back: cycle turn * -1
move swap: cycle (d e)
move twist: cycle (a c) (b e) if c is not empty
safe: a is not empty
"""


@pytest.mark.parametrize(
    ("count", "reach", "mode"), [(False, False, None), (True, False, None), (False, True, None), (False, False, "any")]
)
def test_moves_of_cycles_answer_alike(count: bool, reach: bool, mode: str | None) -> None:
    """Cycles (a guard on one, a safety rule on all) on a graph with no links: the same
    states, layers, counts and solutions in both engines; each move's predecessor, run
    backwards, leads to the state again."""
    from puzint.runner import search as run_search

    compiled = compiled_from(CYCLES)
    assert compiled.invertible and not compiled.undirected  # `twist` has a condition
    python = run_search(compiled, count=count, reach=reach, mode=mode, method="bfs", engine="python")
    kernel = run_search(compiled, count=count, reach=reach, mode=mode, method="bfs", engine="compiled")
    assert answer(kernel) == answer(python) and python.status == "solved"
    reached = {compiled.start}
    frontier = [compiled.start]
    while frontier:
        state = frontier.pop()
        for child, move in compiled.expand(state):
            assert (state, move) in compiled.expand_back(child)
            if child not in reached:
                reached.add(child)
                frontier.append(child)
    assert len(reached) == search(compiled, reach=True, engine="python").reachable


def test_cycles_undone_by_cycles_reach_from_the_goal_alike() -> None:
    """`back` undoes `turn` and `swap` undoes itself: every move is undone by a move, so the
    kernel reaches from the goal forwards, and finds what Python finds backwards."""
    from puzint.runner import search as run_search

    compiled = compiled_from(CYCLES.replace("move twist: cycle (a c) (b e) if c is not empty\n", ""))
    assert compiled.undirected
    python = run_search(compiled, reach=True, from_goal=True, engine="python")
    kernel = run_search(compiled, reach=True, from_goal=True, engine="compiled")
    assert (kernel.reachable, kernel.layers, kernel.length) == (python.reachable, python.layers, python.length)
    assert kernel.method == "layered bfs from the goal, compiled"
