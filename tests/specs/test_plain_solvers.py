"""The new specs against independent plain solvers (tests/plain/, written without reading
puzint's code): the same puzzle, solved two ways, must give the same answers. For Sokoban and
Rush Hour the tests also check that the spec and the plain solver hold the same position."""

from __future__ import annotations

import pytest
from puzint.runner import load, search
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS
from tests.plain import (
    bishops,
    bridge_torch,
    eight_puzzle,
    hanoi,
    klotski,
    knights_tour,
    lights_out,
    lunar_lockout,
    magic_square,
    pancakes,
    peg_english,
    peg_triangle,
    pocket_cube,
    queens,
    rush_hour,
    sokoban,
    top_spin,
    water_jugs,
)


def picture(name: str) -> list[str]:
    """The start of a grid spec, one string per row (`.`: a square without a cell)."""
    compiled = load(SPECS / f"{name}.puz")
    board = compiled.puzzle.board
    assert board is not None
    rows = []
    for r in range(board.rows):
        squares = board.frame[r * board.cols : (r + 1) * board.cols]
        rows.append("".join("." if c < 0 else compiled.puzzle.symbol(compiled.start[c]) for c in squares))
    return rows


def test_sokoban_is_the_plain_solver_s_room() -> None:
    """Walls (# there, . here), the worker, the boxes, and the targets (the goal's boxes)."""
    rows = picture("sokoban")
    room = sokoban.ROOM
    assert [["#" if ch == "." else " " for ch in row] for row in rows] == [
        ["#" if ch == "#" else " " for ch in row] for row in room
    ]
    here = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in "BM"}
    there = {
        (r, c): "B" if ch in "$*" else "M" for r, row in enumerate(room) for c, ch in enumerate(row) if ch in "$*@+"
    }
    assert here == there
    compiled = load(SPECS / "sokoban.puz")
    board, goal = compiled.puzzle.board, compiled.puzzle.goal.cells
    assert board is not None and goal is not None
    boxes = {((board.cells[i].row or 0) - 1, (board.cells[i].col or 0) - 1) for i, code in enumerate(goal) if code > 0}
    assert boxes == {(r, c) for r, row in enumerate(room) for c, ch in enumerate(row) if ch in ".*+"}


def test_sokoban_answers_agree() -> None:
    result = search(load(SPECS / "sokoban.puz"), reach=True)
    assert (result.length, result.reachable) == (sokoban.shortest_moves(), sokoban.reachable())


def test_rush_hour_is_the_plain_solver_s_position() -> None:
    assert ["".join("." if ch == "_" else ch for ch in row) for row in picture("rush_hour")] == rush_hour.BOARD


def test_rush_hour_answers_agree() -> None:
    result = search(load(SPECS / "rush_hour.puz"), reach=True)
    assert (result.length, result.reachable) == (rush_hour.shortest(), rush_hour.reachable())


@pytest.mark.parametrize("discs", [3, 4, 6])
def test_hanoi_agrees(discs: int) -> None:
    result = search(load(SPECS / "hanoi.puz", {"discs": str(discs)}), reach=True)
    assert (result.length, result.reachable) == (hanoi.shortest(discs), hanoi.reachable(discs))


def test_triangular_peg_solitaire_agrees() -> None:
    result = search(load(SPECS / "peg_triangle.puz"), reach=True)
    assert (result.length, result.reachable, result.reachable_goals) == (
        peg_triangle.shortest_to_one_peg(),
        peg_triangle.reachable(),
        len(peg_triangle.final_holes()),
    )


def test_english_peg_solitaire_agrees_on_the_length() -> None:
    jumps, _, _ = peg_english.solve_dfs()
    assert search(load(SPECS / "peg_english.puz")).length == jumps == 31


def test_bishops_with_the_attack_rule_agree() -> None:
    result = search(load(SPECS / "bishops.puz"), reach=True)
    assert (result.length, result.reachable) == (bishops.shortest(True), bishops.reachable(True))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_lights_out_agrees(n: int) -> None:
    result = search(load(SPECS / "lights_out.puz", {"n": str(n)}), reach=True)
    assert (result.length, result.reachable) == (lights_out.shortest(n), lights_out.reachable(n))


@pytest.mark.parametrize(("small", "big", "want"), [(3, 5, 4), (4, 9, 6), (2, 7, 5)])
def test_water_jugs_agree(small: int, big: int, want: int) -> None:
    params = {"small": str(small), "big": str(big), "want": str(want)}
    result = search(load(SPECS / "water_jugs.puz", params), reach=True)
    assert (result.length, result.reachable) == (
        water_jugs.shortest(small, big, want),
        water_jugs.reachable(small, big),
    )


def test_three_jugs_agree() -> None:
    result = search(load(SPECS / "three_jugs.puz"), reach=True)
    caps, start, goal = (8, 5, 3), (8, 0, 0), (4, 4, 0)
    assert (result.length, result.reachable) == (
        water_jugs.shortest_pour(caps, start, goal),
        water_jugs.reachable_pour(caps, start),
    )


@pytest.mark.parametrize("times", [[1, 2, 5, 10], [1, 2, 5, 8], [1, 3, 6, 8, 12], [2, 3]])
def test_bridge_and_torch_agree(times: list[int]) -> None:
    compiled = load(SPECS / "bridge_torch.puz", {"times": ",".join(map(str, times))})
    result = search(compiled, count=True)
    assert (result.cost, result.length, result.count) == bridge_torch.cheapest(times)


@pytest.mark.parametrize("spec", ["queens", "queens_moves"])
@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_queens_agree(spec: str, n: int) -> None:
    report = enumerate_solutions(load(SPECS / f"{spec}.puz", {"n": str(n)}), Limits())
    assert (report.in_all, report.count) == (queens.count(n), queens.count_up_to_symmetry(n))


def test_magic_square_agrees() -> None:
    report = enumerate_solutions(load(SPECS / "magic_square.puz"), Limits())
    assert (report.in_all, report.count) == (magic_square.count(), magic_square.count_up_to_symmetry())


def test_depth_from_the_start_and_from_the_goal_are_the_plain_solver_s() -> None:
    compiled = load(SPECS / "eight_puzzle.puz")
    goal, start = "12345678_", "8672543_1"
    forward = search(compiled, reach=True, engine="python")
    assert forward.layers == eight_puzzle.layers(start) and forward.depth == 31
    backward = search(compiled, reach=True, from_goal=True, engine="python")
    assert backward.layers == eight_puzzle.layers(goal)
    assert (backward.depth, backward.reachable, backward.length) == (31, 181_440, 31)
    assert backward.farthest is not None and forward.farthest is not None
    for farthest, origin in ((backward.farthest, goal), (forward.farthest, start)):
        drawn = "".join(compiled.puzzle.symbol(code) if code else "_" for code in farthest[: compiled.cells])
        assert drawn in eight_puzzle.farthest(origin)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 8, 12])
def test_knights_tours_are_tours_where_the_plain_solver_finds_one(n: int) -> None:
    compiled = load(SPECS / "knights_tour.puz", {"n": str(n)})
    result = search(compiled, engine="python")
    if n <= 6:
        assert (result.status == "solved") == (knights_tour.tour(n) is not None)
    if result.status == "solved":
        board = compiled.puzzle.board
        assert board is not None
        squares = [(0, 0)]
        for _, state in result.path:
            knight = next(cell for cell in range(compiled.cells) if compiled.puzzle.symbol(state[cell]) == "N")
            squares.append((board.cells[knight].row - 1, board.cells[knight].col - 1))
        assert knights_tour.is_tour(n, squares)


@pytest.mark.parametrize("turns", ["quarter", "half"])
def test_the_pocket_cube_is_solved_as_the_plain_solver_solves_it(turns: str) -> None:
    compiled = load(SPECS / "pocket_cube.puz", {"turns": turns})
    start = "".join(compiled.puzzle.symbol(code) for code in compiled.start[: compiled.cells])
    result = search(compiled, engine="python")
    assert result.length == pocket_cube.shortest(start, half=turns == "half") == 7


# the number of positions at each distance from the solved cube, as the cube's literature
# gives them (quarter turns; half turns counted as one move)
POCKET_QUARTER = [1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276]
POCKET_HALF = [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]


@pytest.mark.slow
@pytest.mark.parametrize(("turns", "layers"), [("quarter", POCKET_QUARTER), ("half", POCKET_HALF)])
@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_pocket_cube_s_distances_from_the_goal_are_the_published_ones(
    turns: str, layers: list[int], engine: str
) -> None:
    compiled = load(SPECS / "pocket_cube.puz", {"turns": turns})
    result = search(compiled, reach=True, from_goal=True, engine=engine)
    assert result.layers == layers and result.reachable == 3_674_160


@pytest.mark.parametrize("n", [1, 2, 3])
def test_microban_levels_read_as_xsb_are_solved_as_the_plain_solver_solves_them(n: int) -> None:
    """The XSB rows the spec reads (`level n from "microban.xsb"`) are the plain solver's; the
    fewest moves and pushes agree."""
    text = (SPECS / "microban.xsb").read_text()
    assert f"; {n}\n\n" + "\n".join(sokoban.MICROBAN[n]) + "\n\n" in text
    room = sokoban.MICROBAN[n]
    moves = search(load(SPECS / "microban.puz", {"n": str(n)}), engine="python")
    pushes = search(load(SPECS / "microban.puz", {"n": str(n), "metric": "pushes"}), engine="python")
    assert (moves.length, pushes.cost) == (sokoban.shortest_moves(room), sokoban.fewest_pushes(room))
    both = search(load(SPECS / "microban.puz", {"n": str(n), "metric": "both"}), engine="python")
    assert tuple(both.cost) == sokoban.fewest_pushes_then_moves(room)  # type: ignore[arg-type]


@pytest.mark.parametrize("sizes", [(3, 6, 1, 5, 7, 2, 4), (4, 2, 5, 1, 3, 6, 8, 7), (2, 1), (1, 2, 3)])
def test_pancakes_flip_as_the_plain_solver_flips(sizes: tuple[int, ...]) -> None:
    compiled = load(SPECS / "pancakes.puz", {"sizes": str(list(sizes))})
    assert search(compiled, engine="python").length == pancakes.fewest_flips(sizes)
    backward = search(compiled, reach=True, from_goal=True, engine="python")
    assert backward.layers == pancakes.layers(tuple(sorted(sizes)))


def _klotski_squares(compiled: object, state: bytes) -> frozenset[tuple[str, int, int]]:
    board = compiled.puzzle.board  # type: ignore[attr-defined]
    symbol = compiled.puzzle.symbol  # type: ignore[attr-defined]
    return frozenset(
        (symbol(state[c]), board.cells[c].row - 1, board.cells[c].col - 1)
        for c in range(compiled.cells)  # type: ignore[attr-defined]
        if state[c]
    )


def _plain_squares(blocks: tuple[tuple[tuple[int, int], tuple[int, int]], ...]) -> frozenset[tuple[str, int, int]]:
    symbols = {(2, 2): "C", (2, 1): "V", (1, 2): "H", (1, 1): "S"}
    return frozenset(
        (symbols[size], at[0] + r, at[1] + c) for size, at in blocks for r in range(size[0]) for c in range(size[1])
    )


@pytest.mark.parametrize("metric", ["pieces", "steps"])
def test_klotski_moves_are_the_plain_solver_s(metric: str) -> None:
    """A block's whole path as one move (`repeated`) and single steps: the same arrangements
    two moves deep as the plain solver's moves."""
    compiled = load(SPECS / "klotski.puz", {"metric": metric})
    assert _klotski_squares(compiled, compiled.start) == _plain_squares(klotski.START)
    ours, theirs = {compiled.start}, {klotski.START}
    for _ in range(2):
        ours = {child for state in ours for child, _ in compiled.expand(state)}
        theirs = {after for state in theirs for after in klotski._moves(state, metric == "pieces")}
        assert {_klotski_squares(compiled, s) for s in ours} == {_plain_squares(s) for s in theirs}


@pytest.mark.slow
@pytest.mark.parametrize(("metric", "moves"), [("pieces", 81), ("steps", 116)])
def test_klotski_is_solved_as_the_plain_solver_solves_it(metric: str, moves: int) -> None:
    compiled = load(SPECS / "klotski.puz", {"metric": metric})
    assert search(compiled, engine="python").length == klotski.fewest_moves(pieces=metric == "pieces") == moves


def test_the_zebra_spec_s_answer_is_the_plain_solver_s() -> None:
    import puzint

    from tests.plain import zebra

    result = puzint.solve("zebra")
    assert [s["filled"] for s in result.data["solutions"]] == zebra.solutions()


def test_the_futoshiki_spec_s_answer_is_the_plain_solver_s() -> None:
    import puzint

    from tests.plain import futoshiki

    spec = (SPECS / "futoshiki.puz").read_text()
    rows = [line.split() for line in spec.split("start:\n")[1].split("fill")[0].splitlines()]
    givens = {(r + 1, c + 1): int(x) for r, row in enumerate(rows) for c, x in enumerate(row) if x != "_"}
    signs = []
    for line in spec.splitlines():
        words = line.split()
        if len(words) == 3 and words[1] in "<>" and words[0].startswith("r"):
            a, b = (tuple(int(x) for x in w[1:].split("c")) for w in (words[0], words[2]))
            signs.append((a, words[1], b))
    assert len(signs) == 12 and givens == {(3, 4): 5, (5, 2): 4}
    (plain,) = futoshiki.solutions(5, givens, signs)  # type: ignore[arg-type]
    assert puzint.solve("futoshiki").solutions == ("/".join(" ".join(map(str, row)) for row in plain),)


@pytest.mark.parametrize(
    "robots", ["_H__H____H_____H________X", "___X__H____H_______H_H___", "__XH_______H______HH_____"]
)
def test_lunar_lockout_agrees(robots: str) -> None:
    """A robot stops only in front of another; the last start is never solved."""
    compiled = load(SPECS / "lunar_lockout.puz", {"robots": robots})
    length, count, _ = lunar_lockout.solve(robots)
    for engine in ("python", "compiled"):
        result = search(compiled, count=True, engine=engine)
        assert (result.length, result.count or 0) == (length, count)
    assert search(compiled, reach=True, engine="python").reachable == lunar_lockout.reachable(robots)


@pytest.mark.parametrize(
    ("perm", "k"), [((2, 5, 1, 4, 3, 7, 10, 6, 9, 8), 4), ((6, 1, 3, 2, 5, 4), 3), ((3, 1, 2, 5, 4, 6, 7, 8), 4)]
)
def test_top_spin_agrees(perm: tuple[int, ...], k: int) -> None:
    compiled = load(SPECS / "top_spin.puz", {"perm": str(list(perm)), "k": str(k)})
    length, count = top_spin.solve(perm, k)
    result = search(compiled, count=True, engine="python")
    assert (result.length, result.count or 0) == (length, count)
