"""Every form of move, run on small states: what each chooses, checks and changes."""

from __future__ import annotations

import itertools

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.engines import RunOptions
from puzint.errors import SpecError
from puzint.runner import search

from tests.conftest import compiled_from


def cells(compiled: CompiledPuzzle, state: bytes) -> str:
    board = compiled.puzzle.board
    assert board is not None
    out = []
    for r in range(board.rows):
        row = "".join(
            compiled.puzzle.symbol(state[c]) if c >= 0 else "."
            for c in board.frame[r * board.cols : (r + 1) * board.cols]
        )
        out.append(row)
    return "/".join(out)


def successors(compiled: CompiledPuzzle, state: bytes | None = None) -> set[str]:
    return {cells(compiled, child) for child, _ in compiled.expand(state or compiled.start)}


def messages(text: str) -> list[str]:
    with pytest.raises(SpecError) as err:
        compiled_from(text)
    return [d.message for d in err.value.diagnostics]


ROOK = "board grid 3 x 4\npiece R rook\npiece X wall\nstart:\n    R _ X _\n    _ _ _ _\n    _ _ _ _\ngoal ?*12\n"


def test_slide_goes_any_distance_through_empty_cells() -> None:
    found = successors(compiled_from(ROOK + "move m: slide R along orthogonal\n"))
    assert found == {"_RX_/____/____", "__X_/R___/____", "__X_/____/R___"}


def test_slide_until_blocked_goes_as_far_as_it_can() -> None:
    found = successors(compiled_from(ROOK + "move m: slide R along orthogonal until blocked\n"))
    assert found == {"_RX_/____/____", "__X_/____/R___"}


def test_slide_until_blocked_by_pieces_stops_only_in_front_of_a_piece() -> None:
    """Lunar Lockout's robots: a slide the edge (or a hole) would end is no move; the rook
    slides right to the wall X and stops before it, and goes nowhere down."""
    found = successors(compiled_from(ROOK + "move m: slide R along orthogonal until blocked by pieces\n"))
    assert found == {"_RX_/____/____"}
    text = "board:\n    R _ . _ X\npiece R rook\npiece X wall\ngoal ?*4\n"
    text += "move m: slide R along right until blocked by pieces\n"
    assert successors(compiled_from(text)) == set()


def test_step_goes_one_cell() -> None:
    found = successors(compiled_from(ROOK + "move m: step R along orthogonal\n"))
    assert found == {"_RX_/____/____", "__X_/R___/____"}


def test_holes_stop_a_slide_like_the_edge() -> None:
    text = "board:\n    R _ . _\npiece R rook\ngoal ? ? ?\nmove m: slide R along right until blocked\n"
    assert successors(compiled_from(text)) == {"_R._"}


def test_a_slide_can_be_undone_so_the_search_runs_from_both_ends() -> None:
    compiled = compiled_from(
        ROOK.replace("goal ?*12", "goal:\n    _ _ X _\n    _ _ _ _\n    _ _ _ R") + "move m: slide R along orthogonal\n"
    )
    assert compiled.invertible and search(compiled).method == "bidirectional" and search(compiled).length == 2
    until = compiled_from(
        ROOK.replace("goal ?*12", "goal:\n    _ _ X _\n    _ _ _ _\n    _ _ _ R")
        + "move m: slide R along orthogonal until blocked\n"
    )
    assert not until.invertible and search(until).length == 2


BLOCKS = """board grid 4 x 3
piece V domino block 2 x 1
piece S square
start:
    V S _
    V _ _
    V _ _
    V _ _
goal ?*12
"""


def test_blocks_of_a_declared_shape_are_read_row_by_row() -> None:
    compiled = compiled_from(BLOCKS + "move m: step ?b along orthogonal\n")
    start = compiled.start
    anchors = [i for i, code in enumerate(start[:12]) if code == 1]
    assert anchors == [0, 6]  # two dominoes, at r1c1 and r3c1, each with its lower half as a part
    assert start[3] == start[9] != 1
    # the square steps right or down; the lower domino steps right, whole; the upper one is stuck
    assert successors(compiled) == {"V_S/V__/V__/V__", "V__/VS_/V__/V__", "VS_/V__/_V_/_V_"}


def test_a_block_moves_whole_and_only_into_empty_cells() -> None:
    compiled = compiled_from(BLOCKS + "move m: step V along right\n")
    assert successors(compiled) == {"VS_/V__/_V_/_V_"}
    slid = compiled_from(BLOCKS + "move m: slide V along right\n")
    assert successors(slid) == {"VS_/V__/_V_/_V_", "VS_/V__/__V/__V"}


def test_a_block_takes_its_shape_from_the_start() -> None:
    text = "board grid 3 x 3\npiece C car block\nstart:\n    C C _\n    _ _ _\n    _ _ _\n"
    text += "goal:\n    ? ? ?\n    ? C C\n    ? ? ?\nmove drive: slide C along orthogonal\n"
    compiled = compiled_from(text)
    assert compiled.puzzle.pieces[0].shape == ((0, 0), (0, 1))
    assert search(compiled).length == 2
    assert "the cells of block C in the start do not touch: one block is one piece" in messages(
        text.replace("    C C _\n", "    C _ C\n")
    )


def test_a_layout_must_show_a_block_whole() -> None:
    broken = BLOCKS.replace("    V _ _\n    V _ _\n", "    V _ _\n    _ _ _\n", 1)  # r4c1 alone
    assert messages(broken + "move m: step V along right\n") == [
        "the start does not show block V whole at r4c1: a 2 x 1 block needs all its cells"
    ]


def test_toggle_flips_the_shape_around_the_anchor_and_leaves_out_what_is_off_the_board() -> None:
    text = "board grid 3 x 3\npiece L light\nneighbourhood plus = (0, 0), orthogonal\n"
    text += "start _*9\ngoal L*9\nmove press: toggle L in plus\n"
    found = successors(compiled_from(text))
    assert "LL_/L__/___" in found  # a corner: three lights
    assert "_L_/LLL/_L_" in found  # the centre: five
    assert len(found) == 9


def test_toggle_undoes_itself_and_searches_from_both_ends() -> None:
    text = "board grid 3 x 3\npiece L light\nneighbourhood plus = (0, 0), orthogonal\n"
    text += "start L*9\ngoal _*9\nmove press: toggle L in plus\n"
    compiled = compiled_from(text)
    assert compiled.invertible and search(compiled).length == 5


JUGS = """counter S = 0 in 0..3
counter B = 0 in 0..5
goal when B == 4
move fill: set ?j = ?j.max
move empty: set ?j = 0
move pour: let k = min(?a, ?b.max - ?b), set ?a = ?a - k, set ?b = ?b + k
"""


def counters(compiled: CompiledPuzzle, state: bytes) -> tuple[int, ...]:
    return compiled.decode(state).counters


def test_counters_are_set_and_poured_and_stay_in_range() -> None:
    compiled = compiled_from(JUGS)
    assert {counters(compiled, c) for c, _ in compiled.expand(compiled.start)} == {(3, 0), (0, 5)}
    full_big = compiled.layout.encode(compiled.puzzle.start._replace(counters=(0, 5)))
    found = {counters(compiled, c) for c, _ in compiled.expand(full_big)}
    assert found == {(3, 5), (0, 0), (3, 2)}  # fill S, empty B, pour B into S (moves that change nothing are not moves)
    assert search(compiled).length == 6


def test_a_counter_out_of_its_range_makes_the_move_impossible() -> None:
    text = "counter k = 0 in 0..2\ngoal when k == 2\nmove up: add 3 to k\nmove up1: add 1 to k\n"
    compiled = compiled_from(text)
    assert [counters(compiled, c) for c, _ in compiled.expand(compiled.start)] == [(1,)]


def test_stacks_take_from_the_top_and_guards_see_the_state_before_the_move() -> None:
    text = "stacks A, B, C\npieces 1..3\nstart at A = reversed(1..3)\ngoal at C: everyone\n"
    text += "move shift: take ?d from ?p, put ?d on ?q if ?q is empty or top(?q) > ?d\n"
    compiled = compiled_from(text)
    assert compiled.decode(compiled.start).places == ((3, 2, 1), (), ())
    after = {compiled.decode(c).places for c, _ in compiled.expand(compiled.start)}
    assert after == {((3, 2), (1,), ()), ((3, 2), (), (1,))}
    result = search(compiled, reach=True)
    assert (result.length, result.reachable) == (7, 27)


def test_a_guard_sees_what_the_move_matched() -> None:
    text = "board line 4\npieces 1..3\nstart 1 2 3 _\ngoal ? ? ? ?\n"
    text += "move hop: ?x _ -> _ ?x along left, right if ?x.value >= 3\n"
    found = {bytes(c[:4]) for c, _ in compiled_from(text).expand(compiled_from(text).start)}
    assert found == {bytes([1, 2, 0, 3])}


def test_put_makes_a_new_piece_and_take_removes_one_from_a_cell() -> None:
    text = "board line 3\npiece Q queen\ncounter n = 0 in 0..3\ngoal when count(queen) == 3\n"
    text += "move place: put Q at ?c, add 1 to n\nmove lift: take ?q from ?c, add -1 to n if n >= 2\n"
    compiled = compiled_from(text)
    assert successors(compiled) == {"Q__", "_Q_", "__Q"}
    assert search(compiled).length == 3


def test_cheapest_search_adds_the_costs_and_counts_the_cheapest_solutions() -> None:
    text = "places near, far\ngroup time = [1, 2, 5, 10]\npiece P walker per time\ncarrier torch at near\n"
    text += "start at near: everyone\ngoal at far: everyone\n"
    text += "move cross: carry 1..2 in torch cost max(p.time for p in load)\n"
    text += "search cheapest\n"
    result = search(compiled_from(text), count=True)
    assert (result.cost, result.length, result.count) == (17, 5, 2)


def test_a_cost_is_refused_unless_the_search_is_cheapest() -> None:
    text = "board line 3\npiece A a\nstart A _ _\ngoal _ _ A\nmove s: A _ -> _ A along right cost 2\n"
    assert messages(text) == ["costs are used by `search cheapest`, and this spec searches for the fewest moves"]
    assert search(compiled_from(text + "search cheapest\n")).cost == 4


def test_actions_follow_a_rewrite() -> None:
    text = "board line 4\npiece M man\npiece B box\ncounter pushes = 0 in 0..9\nstart M B _ _\n"
    text += "goal when pushes == 2\nmove push: M B _ -> _ M B along right, add 1 to pushes\n"
    result = search(compiled_from(text))
    assert result.length == 2


def test_distinct_variables_take_distinct_places() -> None:
    text = "places L, R\npiece T token\nstart at L: T T\ngoal at R: T T\nmove m: take ?t from ?p, put ?t on ?q\n"
    compiled = compiled_from(text)
    assert {compiled.decode(c).places for c, _ in compiled.expand(compiled.start)} == {((1,), (1,))}


def test_a_rewrite_in_a_shape_turns_a_square_of_cells() -> None:
    text = 'board grid 2 x 3\npieces "ABCDEF"\nshape square = (0, 0), (0, 1), (1, 0), (1, 1)\n'
    text += "start:\n    A B C\n    D E F\ngoal:\n    D A C\n    E B F\n"
    text += "move turn: ?a ?b ?c ?d -> ?c ?a ?d ?b in square\n"
    compiled = compiled_from(text)
    assert successors(compiled) == {"DAC/EBF", "AEB/DFC"}  # two anchors, each turned clockwise
    assert search(compiled).length == 1


def test_declared_attributes_are_read_in_conditions_and_costs() -> None:
    text = "places near, far\npiece A walker with time = 1\npiece B walker with time = 8\ncarrier torch at near\n"
    text += "start at near: everyone\ngoal at far: everyone\n"
    text += "move cross: carry 1..2 in torch if every walker w in load: w.time < 5 cost sum(w.time for w in load)\n"
    text += "search cheapest\n"
    assert search(compiled_from(text)).status == "no-solution"  # B is too slow to cross at all
    result = search(compiled_from(text.replace("w.time < 5", "w.time < 9")))
    assert (result.cost, result.length) == (9, 1)  # both together: 1 + 8


def test_cheapest_search_uses_a_heuristic_as_astar() -> None:
    text = "counter x = 0 in 0..20\ngoal when x == 17\nmove one: add 1 to x cost 1\nmove five: add 5 to x cost 3\n"
    text += "search cheapest\n"
    plain = search(compiled_from(text))
    guided = search(compiled_from(text + "heuristic (17 - x) * 3 / 5\n"))
    assert (plain.cost, guided.cost) == (11, 11) and guided.method == "A*"  # 5+5+5+1+1
    assert guided.states <= plain.states


def test_a_toggle_in_a_shape_needs_the_whole_shape_on_the_board() -> None:
    coins = "param n = 5\nboard line n\npiece H heads\npiece T tails\nshape pair = (0, 0), (0, 1)\n"
    coins += "start H*n\ngoal T*n\nmove flip: toggle H T in pair\n"
    result = search(compiled_from(coins), reach=True)
    assert (result.status, result.reachable) == ("no-solution", 16)  # an odd row never turns over
    assert search(compiled_from(coins, n=6)).length == 3
    cut = coins.replace("shape pair", "neighbourhood pair")
    assert search(compiled_from(cut)).length == 3  # cut at the edge, the last coin flips alone
    with pytest.raises(SpecError) as err:
        compiled_from(cut.replace("toggle H T in pair", "H H -> T T in pair"))
    assert "pair is a neighbourhood, cut at the board's edges" in err.value.diagnostics[0].message


FAR_ADVANCE = """
puzzle "advance far"
board {board}
pieces 1..3 "numbers"
cursor at 1
start at hand: everyone
move place: take ?t from hand, put ?t at cursor, let k = ?t * {factor}, advance cursor by k along {along}
safe: cursor is empty or hand is empty
goal when hand is empty
search all
"""


@pytest.mark.parametrize(
    ("board", "along", "factor"),
    [("ring 5", "clockwise", 999999999999999), ("line 5", "right", 999999999999999), ("ring 7", "anticlockwise", 12)],
)
def test_a_cursor_advanced_round_a_ring_any_number_of_times_lands_where_the_steps_say(
    board: str, along: str, factor: int
) -> None:
    """A walk of 10**15 steps round a ring of 5 is a walk of 10**15 mod 5: it must end at
    once, in both engines, where a plain walk of that many steps would."""
    from puzint.kernel import installed
    from puzint.search import Limits
    from puzint.solutions import enumerate_solutions

    compiled = compiled_from(FAR_ADVANCE.format(board=board, along=along, factor=factor))
    n = compiled.cells
    step = 1 if along != "anticlockwise" else -1
    expected = set()
    for order in itertools.permutations([1, 2, 3]):
        cells, at = [0] * n, 0
        for i, t in enumerate(order):
            if at is None or cells[at]:
                break
            cells[at] = t
            if i < 2:
                target = at + step * t * factor
                at = target % n if board.startswith("ring") else (target if 0 <= target < n else None)
        else:
            expected.add(tuple(cells))
    for engine in ("python", "compiled") if installed() else ("python",):
        report = enumerate_solutions(compiled, Limits(max_states=10_000), options=RunOptions(engine))
        assert {tuple(path[-1][1][:n]) for path in report.solutions} == expected, engine


def test_a_matched_piece_a_rewrite_takes_off_is_said_to_leave() -> None:
    """`?b -> _` takes the matched piece off the board: each move says which piece leaves
    which cell, as `R -> _` does, so that the two moves of one name are told apart (in the
    solution, and in a solution file to replay)."""
    for rule in ("?b -> _", "R -> _"):
        compiled = compiled_from(f"board line 2\npiece R hoop\nstart R R\ngoal _ _\nmove off: {rule} along right\n")
        labels = {compiled.label(move, compiled.start).movers for _, move in compiled.expand(compiled.start)}
        assert labels == {(("R", "1", None),), (("R", "2", None),)}, rule
    swap = compiled_from(
        "board line 2\npiece R r\npiece G g\nstart R G\ngoal G R\nmove s: ?a ?b -> ?b ?a along right\n"
    )
    ((_, move),) = swap.expand(swap.start)
    assert swap.label(move, swap.start).movers == (("R", "1", "2"), ("G", "2", "1"))


RINGS = """
board line 4
piece R hoop
start R R R R
goal _ _ _ _
move first: R -> _ along right from 1
move first: _ -> R along right from 1
move on: ?a _ -> ?a R along right if count(x in cells if x.col < ?a.col and x is hoop) == 0
move off: ?a ?b -> ?a _ along right if count(x in cells if x.col < ?a.col and x is hoop) == 0
move mark: ?a _ -> ?a R along right, add 1 to turns if ?a.col == 1
shape single = (0, 0)
move flip: toggle R in single at ?c if ?c.col >= 3 and count(x in cells if x is hoop) > 1
counter turns = 0 in 0..3
"""


def test_the_moves_between_two_states_are_those_expand_gives() -> None:
    """A solution kept as states is named again move by move (`moves_to`): where a move has
    no actions, or actions and a condition, only the choices that make the next state have
    their condition asked (a toggle's count over the board); the moves found are expand's,
    in its order, on every pair of states the moves join."""
    compiled = compiled_from(RINGS)
    seen, frontier = {compiled.start}, [compiled.start]
    pairs = 0
    while frontier:
        state = frontier.pop()
        children = compiled.expand(state)
        for child in {child for child, _ in children}:
            assert compiled.moves_to(state, child) == [s for s in children if s[0] == child]
            pairs += 1
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    assert len(seen) > 16 and pairs > len(seen)  # the counter multiplies the rings' 16 arrangements


def test_a_counter_variable_never_takes_a_counter_the_move_changes_by_name() -> None:
    """`set ?a = 2, add 1 to X`: the changes are made at once, so ?a taking X would lose one of
    them; ?a ranges over the other counters (here Y alone), and the kernel refuses the move."""
    compiled = compiled_from(
        'puzzle "v"\ncounter X = 0 in 0..3\ncounter Y = 0 in 0..3\ngoal when X == 3\nmove m: set ?a = 2, add 1 to X\n'
    )
    assert [compiled.layout.decode(child).counters for child, _ in compiled.expand(compiled.start)] == [(1, 2)]
    result = search(compiled, reach=True, engine="python")
    assert (result.length, result.reachable) == (3, 4)  # (0, 0), (1, 2), (2, 2), (3, 2)
    assert search(compiled, reach=True).reachable == 4  # auto: the kernel cannot, Python answers
    with pytest.raises(Exception, match="a move that chooses a counter and changes one by name"):
        search(compiled, engine="compiled")
