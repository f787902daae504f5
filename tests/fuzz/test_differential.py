"""Differential fuzzing: small random specs (`generate`) asked every question on both engines,
which must give the same answer field by field; and each answer checked against a plain walk
of the puzzle's states that shares nothing with the searches but the move generator
(`CompiledPuzzle.expand`, the reference):

- every solution replayed move by move, ending at a goal, its cost the sum of its moves';
- the shortest length, the number of shortest solutions, the reachable states and goals, a
  proof that there is no solution: from a plain breadth-first walk;
- the cheapest cost, and the number of cheapest solutions: every path that never repeats a
  state, walked one by one;
- counts up to symmetry: orbits worked out from each symmetry's own maps of cells, pieces
  and places, on the states decoded;
- `search all`: the goal states a plain depth-first walk reaches.

The default run tries a fixed set of specs (a fixed seed, a small budget). A long run hunts
for new disagreements: `pytest -m fuzz tests/fuzz/test_differential.py --hypothesis-seed=N`
(PUZINT_FUZZ_EXAMPLES=N sets how many specs). Every disagreement found becomes a test in
`test_regressions.py`.
"""

from __future__ import annotations

import heapq
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from puzint.compiler import CompiledPuzzle, compile_puzzle
from puzint.engines import RunOptions
from puzint.errors import SpecError
from puzint.kernel import installed
from puzint.language.elaborate import elaborate
from puzint.language.parser import parse
from puzint.model.puzzle import State
from puzint.runner import kernel_unfit, search
from puzint.search import Limits
from puzint.search.result import LIMIT, NO_SOLUTION, SOLVED, SearchResult
from puzint.solutions import enumerate_shortest, enumerate_solutions

from .generate import specs

MOST = 20_000  # states a question may take; a spec that needs more is not compared
SECONDS = 20.0  # and seconds (a search of very many solutions, say)
PLAIN_MOST = 5_000  # states the plain walks take on; beyond, their checks are left out
PATHS_MOST = 3_000  # solutions walked one by one


def compile_text(text: str) -> CompiledPuzzle | None:
    """The compiled spec, or None where it is refused (with every diagnostic placed)."""
    try:
        return compile_puzzle(elaborate(parse(text, "fuzz.puz")))
    except SpecError as exc:
        for diagnostic in exc.diagnostics:
            assert diagnostic.pos.line >= 1, f"a refusal without a position: {diagnostic.message}"
        return None


def answer(result: SearchResult) -> dict[str, Any]:
    """Every field of a result that the JSON output shows, but time and method."""
    return {
        "status": result.status,
        "states": result.states,
        "length": result.length,
        "cost": result.cost,
        "count": result.count,
        "count_up_to_symmetry": result.count_up_to_symmetry,
        "reachable": result.reachable,
        "reachable_up_to_symmetry": result.reachable_up_to_symmetry,
        "reachable_goals": result.reachable_goals,
        "symmetry_not_applied": result.symmetry_note,
        "path": result.path,
        "limit": result.limit_reason,
    }


def ask(compiled: CompiledPuzzle, engine: str, **question: Any) -> SearchResult | str:
    """The result, or the refusal's message where the question does not apply."""
    try:
        return search(compiled, limits=Limits(max_states=MOST, timeout=SECONDS), engine=engine, **question)
    except SpecError as exc:
        return exc.diagnostics[0].message


# ---- the plain walks


class Plain:
    """Every state the puzzle reaches, by a plain breadth-first walk over `expand`: each
    state's depth and number of shortest paths (two moves to one state are one path)."""

    def __init__(self, compiled: CompiledPuzzle):
        self.compiled = compiled
        self.depth: dict[bytes, int] = {compiled.start: 0}
        self.paths: dict[bytes, int] = {compiled.start: 1}
        self.complete = True
        layer = [compiled.start]
        while layer:
            following: list[bytes] = []
            for state in layer:
                for child in {child for child, _ in compiled.expand(state)}:
                    if child not in self.depth:
                        self.depth[child] = self.depth[state] + 1
                        self.paths[child] = 0
                        following.append(child)
                    if self.depth[child] == self.depth[state] + 1:
                        self.paths[child] += self.paths[state]
            layer = following
            if len(self.depth) > PLAIN_MOST:
                self.complete = False
                return
        self.goals = [s for s in self.depth if compiled.is_goal(s)]

    @classmethod
    def unknown(cls, compiled: CompiledPuzzle) -> Plain:
        """A walk that could not be made: its checks are left out."""
        plain = cls.__new__(cls)
        plain.compiled, plain.depth, plain.paths, plain.complete, plain.goals = compiled, {}, {}, False, []
        return plain

    def shortest(self) -> tuple[int, int] | None:
        """(length, count) of the shortest solutions, counted in the layers before the first
        goal (a path through a goal stops there: a goal in an earlier layer means no later)."""
        if not self.goals:
            return None
        length = min(self.depth[g] for g in self.goals)
        return length, sum(self.paths[g] for g in self.goals if self.depth[g] == length)


def replay(compiled: CompiledPuzzle, path: list[tuple[int, bytes]]) -> int:
    """Walk a solution through the reference move generator; its cost."""
    state, total = compiled.start, 0
    for move, after in path:
        costs = [cost for child, number, cost in compiled.expand_costed(state) if number == move and child == after]
        assert costs, f"move {move} does not lead from {state!r} to {after!r}"
        total += min(costs)
        state = after
    assert compiled.is_goal(state), "a solution that does not end at a goal"
    return total


def cheapest_paths(compiled: CompiledPuzzle) -> tuple[int | None, int | None]:
    """The least cost of a solution (Dijkstra over `expand_costed`, goals not expanded), and
    how many paths of that cost never repeat a state (None past PATHS_MOST)."""
    best: dict[bytes, int] = {compiled.start: 0}
    queue = [(0, compiled.start)]
    least: int | None = None
    while queue:
        g, state = heapq.heappop(queue)
        if g > best[state] or (least is not None and g > least):
            continue
        if compiled.is_goal(state):
            least = g if least is None else min(least, g)
            continue
        for child, _, cost in compiled.expand_costed(state):
            if child not in best or g + cost < best[child]:
                best[child] = g + cost
                heapq.heappush(queue, (g + cost, child))
        if len(best) > PLAIN_MOST:
            return None, None
    if least is None:
        return None, 0
    found = 0
    walk: list[tuple[bytes, int, frozenset[bytes]]] = [(compiled.start, 0, frozenset([compiled.start]))]
    steps = 0
    while walk:
        state, g, seen = walk.pop()
        steps += 1
        if steps > 50 * PATHS_MOST:
            return least, None
        if compiled.is_goal(state):
            found += g == least
            continue
        for child in {(c, cost) for c, _, cost in compiled.expand_costed(state)}:
            target, cost = child
            if target not in seen and g + cost <= least and g + cost <= best.get(target, g + cost):
                walk.append((target, g + cost, seen | {target}))
    return least, found


def image_of(compiled: CompiledPuzzle, element: Any) -> Callable[[bytes], bytes]:
    """A symmetry's image of a state, from its maps of cells, codes and places, on the state
    decoded (not the compiled image functions). A block's cells are mapped, then its parts
    laid on them again in reading order (its first part is the cell read first)."""
    layout, puzzle = compiled.layout, compiled.puzzle
    board = puzzle.board

    def image(state: bytes) -> bytes:
        decoded = layout.decode(state)
        cells = [0] * len(decoded.cells)
        for i, code in enumerate(decoded.cells):
            cells[element.cells[i]] = element.codes[code]
        for anchor, code in enumerate(decoded.cells):
            part = puzzle.parts[code]
            shape = puzzle.pieces[part.piece - 1].shape if part.piece else None
            if shape is None or part.offset != 0:
                continue
            assert board is not None
            row, col = board.cells[anchor].row or 0, board.cells[anchor].col or 0
            mapped = [element.cells[board.at(row + dr, col + dc)] for dr, dc in shape]  # type: ignore[index]
            ordered = sorted(mapped, key=lambda c: (board.cells[c].row, board.cells[c].col))
            codes = {p: c for c, p in enumerate(puzzle.parts) if p.piece == part.piece}
            for k, cell in enumerate(ordered):
                cells[cell] = codes[puzzle.parts[code]._replace(offset=k)]
        places: list[tuple[int, ...]] = [()] * len(decoded.places)
        for p, contents in enumerate(decoded.places):
            if layout.places[p].stack:
                places[element.places[p]] = tuple(element.codes[c] for c in contents)
            else:
                bag = [0] * len(contents)
                for i, n in enumerate(contents):
                    bag[element.codes[i + 1] - 1] = n
                places[element.places[p]] = tuple(bag)
        return layout.encode(State(tuple(cells), decoded.counters, tuple(places)))

    return image


def orbits(states: list[bytes], images: list[Callable[[bytes], bytes]]) -> int:
    seen: set[bytes] = set()
    count = 0
    for state in states:
        if state not in seen:
            count += 1
            seen.update(image(state) for image in images)
            seen.add(state)
    return count


def symmetric_moves(compiled: CompiledPuzzle, plain: Plain, images: list[Callable[[bytes], bytes]]) -> bool:
    """Whether every symmetry maps each reachable state's moves onto its image's."""
    return all(
        {image(c) for c, _ in compiled.expand(s)} == {c for c, _ in compiled.expand(image(s))}
        for image in images
        for s in plain.depth
    )


# ---- the checks


def check_question(compiled: CompiledPuzzle, plain: Plain, question: dict[str, Any]) -> None:
    python = ask(compiled, "python", **question)
    kernel_fits = (
        installed()
        and kernel_unfit(
            compiled,
            question.get("count", False),
            question.get("reach", False),
            question.get("method", "auto"),
            question.get("mode"),
        )
        is None
    )
    if kernel_fits:
        kernel = ask(compiled, "compiled", **question)
        both_ends = not isinstance(python, str) and python.method.startswith("bidirectional")
        if both_ends and not isinstance(kernel, str) and "bidirectional" not in kernel.method:
            # no method named, and the kernel cannot search from both ends: it searched breadth first
            python = ask(compiled, "python", **{**question, "method": "bfs"})
        if isinstance(python, str) or isinstance(kernel, str):
            assert python == kernel, f"{question}: python {python!r}, kernel {kernel!r}"
        elif LIMIT not in (python.status, kernel.status):
            assert answer(kernel) == answer(python), f"{question}: the engines disagree"
    if isinstance(python, str) or python.status == LIMIT:
        return
    if python.status == SOLVED:
        cost = replay(compiled, python.path)
        if python.cost is not None:
            assert cost == python.cost
    mode = compiled.puzzle.search
    if not plain.complete:
        return
    if mode == "cheapest":
        least, paths = cheapest_paths(compiled)
        assert python.status == (SOLVED if least is not None else NO_SOLUTION)
        assert python.cost == least
        if question.get("count") and paths is not None and least is not None:
            assert python.count == paths
        return
    found = plain.shortest()
    assert python.status == (SOLVED if found is not None else NO_SOLUTION), "a solution missed or invented"
    heuristic = compiled.estimate is not None and question.get("method") != "bfs"
    if found is not None and mode in ("shortest", "count", "reach") and not heuristic:
        assert python.length == found[0]
    if python.count is not None and found is not None:
        assert python.count == found[1]
    if python.reachable is not None:
        assert python.reachable == len(plain.depth)
        if python.reachable_goals is not None:
            assert python.reachable_goals == len(plain.goals)
    group = compiled.symmetry
    if group is not None and python.reachable_up_to_symmetry is not None:
        images = [image_of(compiled, e) for e in group.elements[1:]]
        assert python.reachable_up_to_symmetry == orbits(list(plain.depth), images)
    if group is not None and python.count_up_to_symmetry is not None and found is not None:
        check_solutions_up_to_symmetry(compiled, plain, python, found[0])


def check_solutions_up_to_symmetry(compiled: CompiledPuzzle, plain: Plain, result: SearchResult, length: int) -> None:
    """The classes of shortest solutions (as sequences of states) under the symmetries that
    fix the start and keep the goals, each checked to map moves to moves."""
    group = compiled.symmetry
    assert group is not None
    images = [image_of(compiled, e) for e in group.elements[1:]]
    assert symmetric_moves(compiled, plain, images), "counted up to symmetries that do not map moves to moves"
    keeping = [
        image
        for image in images
        if image(compiled.start) == compiled.start
        and all(compiled.is_goal(image(s)) == compiled.is_goal(s) for s in plain.depth)
    ]
    solutions: list[tuple[bytes, ...]] = []
    walk = [(compiled.start,)]
    steps = 0
    while walk:
        states = walk.pop()
        steps += 1
        if steps > 50 * PATHS_MOST:
            return
        if len(states) - 1 == length:
            if compiled.is_goal(states[-1]):
                solutions.append(states)
            continue
        for child in {c for c, _ in compiled.expand(states[-1])}:
            if plain.depth.get(child) == len(states) and not compiled.is_goal(states[-1]):
                walk.append((*states, child))
        if len(solutions) > PATHS_MOST:
            return
    classes = {min(tuple(image(s) for s in solution) for image in [*keeping, lambda s: s]) for solution in solutions}
    assert result.count_up_to_symmetry == len(classes)


def check_all(compiled: CompiledPuzzle, plain: Plain) -> None:
    """`search all`: both engines list the same goal states; a plain walk finds them all."""
    limits = Limits(max_states=MOST, timeout=SECONDS)
    try:
        python = enumerate_solutions(compiled, limits, options=RunOptions("python"))
    except SpecError as exc:
        if installed() and kernel_unfit(compiled, False, False, "auto", None) is None:
            with pytest.raises(SpecError) as kernel_error:
                enumerate_solutions(compiled, Limits(max_states=MOST, timeout=SECONDS), options=RunOptions("compiled"))
            assert kernel_error.value.diagnostics[0].message == exc.diagnostics[0].message
        return
    finals = sorted(path[-1][1] if path else compiled.start for path in python.solutions)
    from puzint import kernel

    if kernel.why_not(compiled, depth_first=True) is None:
        on_kernel = enumerate_solutions(
            compiled, Limits(max_states=MOST, timeout=SECONDS), options=RunOptions("compiled")
        )
        if LIMIT not in (python.status, on_kernel.status):
            assert (on_kernel.status, on_kernel.count, on_kernel.in_all, on_kernel.states) == (
                python.status,
                python.count,
                python.in_all,
                python.states,
            )
            assert sorted(path[-1][1] if path else compiled.start for path in on_kernel.solutions) == finals
    if python.status == LIMIT or not plain.complete:
        return
    for path in python.solutions:
        replay(compiled, path)
    reached: set[bytes] = set()
    seen = {compiled.start}
    stack = [compiled.start]
    while stack:
        state = stack.pop()
        if compiled.is_goal(state):
            reached.add(state)
            continue
        for child, _ in compiled.expand(state):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    assert python.in_all == len(reached)
    if compiled.symmetry is None:
        assert set(finals) == reached


def check_spec(text: str) -> None:
    note(text)
    compiled = compile_text(text)
    if compiled is None:
        return
    try:
        plain = Plain(compiled)
    except SpecError:  # a mistake that shows during the search (a number asked of an empty cell):
        plain = Plain.unknown(compiled)  # the engines must both report it, nothing else is checked
    mode = compiled.puzzle.search
    if mode == "all":
        check_all(compiled, plain)
        check_question(compiled, plain, {"count": True})
        return
    check_question(compiled, plain, {})
    check_question(compiled, plain, {"count": True})
    if mode != "cheapest":
        check_question(compiled, plain, {"reach": True})
    if mode in ("shortest", "count", "reach"):
        check_question(compiled, plain, {"method": "bfs", "mode": "shortest"})
        if compiled.goal_state is not None and compiled.invertible:
            check_question(compiled, plain, {"method": "bidirectional", "mode": "shortest"})
        if compiled.estimate is not None:
            check_question(compiled, plain, {"method": "astar", "mode": "shortest"})
            check_question(compiled, plain, {"method": "idastar", "mode": "shortest"})
    if mode in ("shortest", "cheapest", "count") and plain.complete:
        listed = enumerate_shortest(compiled, Limits(max_states=MOST, timeout=SECONDS), limit=PATHS_MOST)
        if listed.status == SOLVED and listed.total is not None and listed.total <= PATHS_MOST:
            for path in listed.solutions:
                replay(compiled, path)
            counted = ask(compiled, "python", count=True)
            assert isinstance(counted, SearchResult) and listed.total == counted.count
            assert listed.in_all == listed.total


EXAMPLES = int(os.environ.get("PUZINT_FUZZ_EXAMPLES", "60"))
QUICK = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LONG = settings(
    max_examples=int(os.environ.get("PUZINT_FUZZ_EXAMPLES", "2000")),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@QUICK
@given(specs())
def test_both_engines_give_every_answer_alike_and_right(text: str) -> None:
    check_spec(text)


@pytest.mark.fuzz
@LONG
@given(specs())
def test_many_specs_on_both_engines(text: str) -> None:
    check_spec(text)
