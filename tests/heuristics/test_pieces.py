"""One-piece tables derived from a spec (heuristics.pieces): on Sokoban, every estimate at most
the exact distance and DEAD only where the goal cannot be reached (both found by a plain
breadth-first search over every state), the dead squares those of a plain one-box search and
a superset of the hand-written solver's, and the shortest solutions unchanged against the
hand-written solver on both engines. The same in the costed metrics (`pushes`: walking free;
`both`: the fewest pushes, then the fewest moves, a cost of two parts): every estimate at
most the exact cost (Dijkstra backward over every state, part by part for `both`), and the
cheapest costs those of the hand-written solver with and without the tables, on both
engines."""

from __future__ import annotations

import heapq
import json
from collections import deque
from pathlib import Path

import pytest
from puzint.cli import main
from puzint.compiler import CompiledPuzzle
from puzint.engines import Query, RunOptions
from puzint.heuristics import Derived, derive
from puzint.heuristics.pieces import piece_tables
from puzint.model.patterns import DEAD
from puzint.model.pieces import PieceSet
from puzint.runner import answer, load, search
from puzint.search import Limits, SearchResult
from puzint.search.costs import LexCost
from puzint.search.result import NO_SOLUTION, SOLVED

from benchmarks import handwritten_sokoban as plain
from tests.conftest import SPECS, compiled_from

LEVELS = plain.xsb_levels((SPECS / "microban.xsb").read_text(encoding="utf-8"))
Square = tuple[int, int]


@pytest.fixture(autouse=True)
def _tables_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUZINT_KEEP_PATTERNS", "0")


def microban(n: int, metric: str = "moves") -> CompiledPuzzle:
    return load(SPECS / "microban.puz", {"n": str(n), "metric": metric})


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


@pytest.mark.parametrize("spec", ["sokoban", "microban 1", "microban 2", "microban 3", "microban 6"])
def test_frozen_pieces_are_said_dead_only_where_no_goal_is_reached(spec: str) -> None:
    """Every reachable state: where the tables find a box that can never move again off a
    target (`PieceSet.frozen_stuck`), the exact search reaches no goal; and they find some
    that no box's dead square shows (two boxes side by side against a wall)."""
    compiled = load(SPECS / "sokoban.puz") if spec == "sokoban" else microban(int(spec.split()[1]))
    alone = derived(compiled).puzzle.alone
    assert alone is not None
    (table,) = alone.tables
    dead_cells = table.dead_cells()
    seen, far = exact_distances(compiled)
    frozen = {s for s in seen if alone.frozen_stuck(s)}
    assert not frozen & far.keys()
    assert any(not any(s[c] == table.code for c in dead_cells) for s in frozen)


def exact_costs(compiled: CompiledPuzzle) -> tuple[set[bytes], dict[bytes, object]]:
    """Every state reachable from the start, and the exact cost to the goal of those that can
    reach it (Dijkstra backward over the reached states' costed moves; a cost of several
    parts added and compared part by part)."""
    seen, todo, back = {compiled.start}, deque([compiled.start]), {}
    while todo:
        state = todo.popleft()
        for after, _, cost in compiled.expand_costed(state):
            back.setdefault(after, []).append((state, cost))
            if after not in seen:
                seen.add(after)
                todo.append(after)
    zero = 0 if compiled.puzzle.alone is None or compiled.puzzle.alone.parts == 1 else LexCost((0, 0))
    far: dict[bytes, object] = {}
    queue = [(zero, i, s) for i, s in enumerate(s for s in seen if compiled.is_goal(s))]
    tie = len(queue)
    while queue:
        cost, _, state = heapq.heappop(queue)
        if state in far:
            continue
        far[state] = cost
        for before, step in back.get(state, ()):
            if before not in far:
                tie += 1
                heapq.heappush(queue, (cost + step, tie, before))
    return seen, far


@pytest.mark.parametrize("metric", ["pushes", "both"])
@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_the_costed_estimate_never_says_more_than_the_cost_and_dead_only_where_no_goal_is_reached(
    n: int, metric: str
) -> None:
    """Part by part for `both`: each part at most that part of the cheapest cost (so at most
    the cost in the order the parts are compared)."""
    compiled = microban(n, metric)
    made = derived(compiled)
    alone = made.puzzle.alone
    assert made.estimate is not None and alone is not None and alone.parts == (2 if metric == "both" else 1)
    seen, far = exact_costs(made)
    values = {state: made.estimate(state) for state in seen}
    first = {s: v[0] if isinstance(v, LexCost) else v for s, v in values.items()}
    dead = {s for s, v in first.items() if v >= DEAD}
    assert dead and not dead & far.keys()  # some states are pruned, and none that reaches the goal
    for state, cost in far.items():
        value = values[state]
        if isinstance(value, LexCost):
            assert isinstance(cost, LexCost) and all(a <= b for a, b in zip(value, cost, strict=True))
        else:
            assert isinstance(cost, int) and value <= cost
    assert first[compiled.start] > 0


def unguided(compiled: CompiledPuzzle, engine: str) -> SearchResult:
    """The cheapest solution found with no heuristic at all (uniform cost)."""
    found = answer(compiled, Query.of(compiled), Limits(), RunOptions(engine, heuristic="none"))
    assert found.status == SOLVED
    return found


def hand_cost(n: int, metric: str) -> object:
    level = plain.read_level(LEVELS[n - 1])
    if metric == "pushes":
        return plain.fewest_pushes(level).steps
    both = plain.fewest_pushes_then_moves(level)
    return [both.pushes, both.moves]


@pytest.mark.parametrize("metric", ["pushes", "both"])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 8])
def test_the_cheapest_costs_are_unchanged_on_both_engines(n: int, metric: str) -> None:
    """The tables guide A* to the hand-written solver's cost, as uniform cost finds it, on
    both engines, over the same states; the kernel estimates a cost of two parts packed."""
    compiled = microban(n, metric)
    expected = hand_cost(n, metric)
    made = derived(compiled)
    python = search(made, engine="python")
    kernel = search(made, engine="compiled")
    assert python.method == "A*" and kernel.method == "A*, compiled"
    plain_python, plain_kernel = unguided(compiled, "python"), unguided(compiled, "compiled")
    costs = [python.cost, kernel.cost, plain_python.cost, plain_kernel.cost]
    assert [list(c) if isinstance(c, LexCost) else c for c in costs] == [expected] * 4
    assert python.states == kernel.states and plain_python.states == plain_kernel.states
    assert python.states < plain_python.states


def test_auto_derives_the_tables_for_the_pushes_of_a_large_level() -> None:
    """`auto` guides the cheapest solution of a level whose boxes can be arranged in many ways
    (Microban 7) with the tables, as it does the shortest."""
    for metric in ("pushes", "both"):
        found = search(microban(7, metric), engine="python")
        assert found.heuristic == "derived" and found.method == "A*"
        assert found.cost == (6 if metric == "pushes" else LexCost((6, 26)))


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
    finds no solution, as breadth first does (A* stores no dead successor, IDA* enters none)."""
    plain_search = compiled_from(CORNERED)
    made = derived(plain_search)
    assert made.estimate is not None and made.estimate(made.start) == DEAD and made.dead == DEAD
    assert search(plain_search, engine="python").status == NO_SOLUTION
    found = search(made, method=method, engine=engine)
    assert found.status == NO_SOLUTION
    assert found.states <= 1 if method == "astar" else found.states == 0


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_dead_states_are_not_stored(engine: str) -> None:
    """Microban 3: A* with the tables stores fewer states than it reaches with no pruning, and
    never one the tables call dead."""
    made = derived(microban(3))
    found = search(made, method="astar", engine=engine)
    assert found.status == SOLVED and found.length == 41
    seen, _ = exact_distances(made)
    assert made.estimate is not None
    live = sum(1 for s in seen if made.estimate(s) < DEAD)
    assert found.states <= live < len(seen)


FROZEN = """
puzzle "two boxes side by side against a wall"
board:
    . . . . . . .
    . _ B B _ _ .
    . _ _ _ _ M .
    . _ _ _ _ _ .
    . . . . . . .
piece M worker
piece B box
goal:
    . . . . . . .
    . B ? ? ? B .
    . ? ? ? ? ? .
    . ? ? ? ? ? .
    . . . . . . .
move walk: M _ -> _ M along orthogonal
move push: M B _ -> _ M B along orthogonal
"""


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_two_boxes_that_hold_each_other_against_a_wall_are_dead(engine: str) -> None:
    """Each box alone could be pushed along the wall to a target (no dead square holds one),
    but side by side neither can move: each push needs the other's square. The start is
    dead, and the search stores nothing more, where breadth first walks the worker over the
    room's 13 other squares."""
    compiled = compiled_from(FROZEN)
    made = derived(compiled)
    alone = made.puzzle.alone
    assert alone is not None and made.estimate is not None
    (table,) = alone.tables
    assert not any(made.start[c] == table.code for c in table.dead_cells())
    assert alone.frozen_stuck(made.start) and made.estimate(made.start) == DEAD
    unpruned = search(compiled, engine="python")
    assert unpruned.status == NO_SOLUTION and unpruned.states == 13
    found = search(made, method="astar", engine=engine)
    assert found.status == NO_SOLUTION and found.states <= 1


def test_a_box_frozen_on_its_target_is_not_dead() -> None:
    """The same boxes on targets of their own and a third box free: frozen, but where the goal
    wants them, so the state is not dead, and the free box is pushed home."""
    spec = FROZEN.replace(". B ? ? ? B .", ". ? B B ? ? .").replace(". _ _ _ _ M .", ". _ _ B _ M .")
    spec = spec.replace(". ? ? ? ? ? .\n    . ? ? ? ? ? .", ". ? ? ? ? ? .\n    . ? ? ? B ? .", 1)
    compiled = compiled_from(spec)
    made = derived(compiled)
    alone = made.puzzle.alone
    assert alone is not None and made.estimate is not None
    assert not alone.frozen_stuck(made.start) and made.estimate(made.start) < DEAD
    for engine in ("python", "compiled"):
        found = search(made, method="astar", engine=engine)
        assert found.status == SOLVED and found.length == search(compiled, engine="python").length


HUGE = """
puzzle "a spec's estimate past DEAD"
board:
    . . . . . .
    . _ _ _ _ .
    . _ B B _ .
    . _ _ M _ .
    . . . . . .
piece M worker
piece B box
goal:
    . . . . . .
    . ? ? B ? .
    . ? B ? ? .
    . ? ? ? ? .
    . . . . . .
move walk: M _ -> _ M along orthogonal
move push: M B _ -> _ M B along orthogonal
heuristic 2000000000000
"""


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_spec_estimate_past_dead_prunes_nothing(engine: str) -> None:
    """Only the derived tables say a state is dead: a spec's own estimate as large as DEAD
    (no lower bound, but a heuristic all the same) is not taken for one, alone or with the
    tables (where it is kept below DEAD)."""
    compiled = compiled_from(HUGE)
    assert compiled.dead is None
    alone = search(compiled, method="astar", engine=engine)
    made = derived(compiled)
    assert made.dead == DEAD and made.estimate is not None and made.estimate(made.start) < DEAD
    both = search(made, method="astar", engine=engine)
    assert alone.status == both.status == SOLVED


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


DEAD_START = """\
board grid 4 x 4
piece M worker drawn "@"
piece B box drawn "$"
start:
    B _ _ _
    _ _ _ _
    _ _ _ _
    _ _ _ M
goal:
    ? ? ? ?
    ? B ? ?
    ? ? ? ?
    ? ? ? ?
move walk: M _ -> _ M along orthogonal
move push: M B _ -> _ M B along orthogonal
"""


def test_a_start_the_tables_show_dead_is_said_to_be_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A box in a corner can never be pushed out: the search prunes the start itself. The
    answer says why, not that every reachable state was explored (the room has hundreds),
    and the estimate at the start is "dead", not the number that stands for it."""
    spec = tmp_path / "corner.puz"
    spec.write_text(DEAD_START, encoding="utf-8")
    assert main(["run", str(spec), "--heuristic", "derived", "--format", "json"]) == 4  # no solution
    data = json.loads(capsys.readouterr().out)
    assert (data["status"], data["heuristic"]["at_start"], "reachable" in data) == ("no-solution", "dead", False)
    main(["run", str(spec), "--heuristic", "derived"])
    out = " ".join(capsys.readouterr().out.split())
    assert "no solution: the derived tables show the start can never reach the goal" in out
    assert "dead at the start" in out
