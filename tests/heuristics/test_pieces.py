"""One-piece tables derived from a spec (heuristics.pieces): on Sokoban, every estimate at most
the exact distance and DEAD only where the goal cannot be reached (both found by a plain
breadth-first search over every state), the dead squares those of a plain one-box search and
a superset of the hand-written solver's, and the shortest solutions unchanged against the
hand-written solver on both engines."""

from __future__ import annotations

from collections import deque

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.heuristics import Derived, derive
from puzint.heuristics.pieces import piece_tables
from puzint.model.patterns import DEAD
from puzint.model.pieces import PieceSet
from puzint.runner import load, search
from puzint.search import Limits
from puzint.search.result import NO_SOLUTION

from benchmarks import handwritten_sokoban as plain
from tests.conftest import SPECS, compiled_from

LEVELS = plain.xsb_levels((SPECS / "microban.xsb").read_text(encoding="utf-8"))
Square = tuple[int, int]


@pytest.fixture(autouse=True)
def _tables_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZINT_KEEP_PATTERNS", "0")


def microban(n: int) -> CompiledPuzzle:
    return load(SPECS / "microban.puz", {"n": str(n)})


def derived(compiled: CompiledPuzzle) -> CompiledPuzzle:
    made = derive(compiled, Limits())
    assert isinstance(made, Derived)
    assert made.compiled.puzzle.alone is not None
    return made.compiled


def exact_distances(compiled: CompiledPuzzle) -> tuple[set[bytes], dict[bytes, int]]:
    """Every state reachable from the start, and the exact distance to the goal of those that
    can reach it (breadth first backward over the reached states' moves)."""
    seen, todo, back = {compiled.start}, deque([compiled.start]), {}
    while todo:
        state = todo.popleft()
        for after, _ in compiled.expand(state):
            back.setdefault(after, []).append(state)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    far = {s: 0 for s in seen if compiled.is_goal(s)}
    todo = deque(far)
    while todo:
        state = todo.popleft()
        for before in back.get(state, ()):
            if before not in far:
                far[before] = far[state] + 1
                todo.append(before)
    return seen, far


@pytest.mark.parametrize("spec", ["sokoban", "microban 1", "microban 2", "microban 3", "microban 6"])
def test_the_estimate_never_says_more_than_the_distance_and_dead_only_where_no_goal_is_reached(spec: str) -> None:
    compiled = load(SPECS / "sokoban.puz") if spec == "sokoban" else microban(int(spec.split()[1]))
    estimate = derived(compiled).estimate
    assert estimate is not None
    seen, far = exact_distances(compiled)
    values = {state: estimate(state) for state in seen}
    assert all(values[s] <= far[s] for s in far)
    dead = {s for s, v in values.items() if v >= DEAD}
    assert dead and not dead & far.keys()  # some states are pruned, and none that reaches the goal
    assert values[compiled.start] > 0


def one_box_dead_squares(level: plain.Level) -> set[Square]:
    """The squares from which a box alone in the room reaches no target wherever the worker
    stands: breadth first backward from every (box on a target, worker anywhere), over the
    worker's steps taken back and the pushes taken back (pulls)."""
    floor = level.floor
    steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
    reached = {(t, w) for t in level.targets for w in floor if w != t}
    todo = deque(reached)
    while todo:
        box, worker = todo.popleft()
        for dr, dc in steps:
            back = (worker[0] - dr, worker[1] - dc)  # the worker stepped from `back` to `worker`
            if back in floor and back != box and (box, back) not in reached:
                reached.add((box, back))
                todo.append((box, back))
            # a push from (worker at back, box at worker) to (worker at worker, box at box)
            if box == (worker[0] + dr, worker[1] + dc) and back in floor and (worker, back) not in reached:
                reached.add((worker, back))
                todo.append((worker, back))
    live = {box for box, _ in reached}
    return set(floor) - live


@pytest.mark.parametrize("n", [1, 2, 3, 7, 24, 80, 85, 144])
def test_the_dead_squares_are_those_of_one_box_alone(n: int) -> None:
    """Equal to a plain one-box search's; the hand-written solver's own dead squares (which do
    not ask whether the worker can get behind the box) are among them, and on most levels
    the same (on 24, 80, 85 and 144 the worker cannot reach the side a box needs)."""
    compiled = microban(n)
    made = piece_tables(compiled)
    assert isinstance(made, PieceSet)
    (table,) = made.tables
    board = compiled.puzzle.board
    assert board is not None
    level = plain.read_level(LEVELS[n - 1])
    ours = {((board.cells[b].row or 0) - 1, (board.cells[b].col or 0) - 1) for b in table.dead_cells()}
    ours &= level.floor
    assert ours == one_box_dead_squares(level)
    assert set(level.floor - plain.live_squares(level)) <= ours


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 8])
def test_the_shortest_solutions_are_unchanged_on_both_engines(n: int) -> None:
    compiled = microban(n)
    expected = plain.fewest_moves(plain.read_level(LEVELS[n - 1])).steps
    made = derived(compiled)
    python = search(made, method="astar", engine="python")
    kernel = search(made, method="astar", engine="compiled")
    assert python.length == kernel.length == expected
    assert python.states == kernel.states  # the kernel's reading of the tables is the evaluator's
    assert python.states < search(compiled, engine="python").states


CORNERED = """
puzzle "a box in a corner"
board:
    . . . . . .
    . _ _ _ _ .
    . _ B _ _ .
    . _ _ M B .
    . . . . . .
piece M worker
piece B box
goal:
    . . . . . .
    . ? ? ? ? .
    . ? ? B B .
    . ? ? ? ? .
    . . . . . .
move walk: M _ -> _ M along orthogonal
move push: M B _ -> _ M B along orthogonal
"""


@pytest.mark.parametrize("method", ["astar", "idastar"])
@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_dead_start_is_said_dead_and_the_search_still_answers(method: str, engine: str) -> None:
    """A box against the wall with no target along it: the estimate says DEAD, and the search
    (which does not drop such states: a spec's own estimate may be as large) finds no solution,
    as breadth first does."""
    plain_search = compiled_from(CORNERED)
    made = derived(plain_search)
    assert made.estimate is not None and made.estimate(made.start) == DEAD
    assert search(plain_search, engine="python").status == NO_SOLUTION
    assert search(made, method=method, engine=engine).status == NO_SOLUTION


JUMPS = """
puzzle "pegs in a row"
board:
    _ P P _ P
piece P peg
goal:
    _ _ _ P P
move jump: P P _ -> _ _ P along right
"""


def test_a_move_that_removes_pieces_is_refused() -> None:
    assert piece_tables(compiled_from(JUMPS)) == "the move jump makes or removes pieces"
