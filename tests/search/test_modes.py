"""Every search mode, on every kind of puzzle, and symmetries checked on what a search found."""

from __future__ import annotations

import pytest
from puzint.errors import SpecError
from puzint.runner import search
from puzint.search import Limits
from puzint.solutions import enumerate_solutions

from tests.conftest import SPECS, compiled_from


def spec(name: str) -> str:
    return (SPECS / f"{name}.puz").read_text()


def test_search_any_finds_a_solution_depth_first_in_reading_order() -> None:
    result = search(compiled_from(spec("peg_triangle").replace("goal when", "search any\ngoal when")))
    assert (result.status, result.length, result.method) == ("solved", 13, "depth first")
    english = search(compiled_from(spec("peg_english")))
    assert english.length == 31 and english.states < 20_000  # reading order: 8,993 states


def test_search_reach_counts_the_goal_states_among_the_reachable_ones() -> None:
    result = search(compiled_from(spec("peg_triangle")), reach=True)
    assert (result.reachable, result.reachable_goals) == (3016, 4)


def test_search_count_and_reach_directives_ask_those_questions() -> None:
    counted = search(compiled_from(spec("frog") + "search count\n"))
    assert (counted.length, counted.count) == (15, 2)
    reached = search(compiled_from(spec("frog") + "search reach\n"))
    assert reached.reachable == 72


def test_search_all_lists_one_solution_of_each_symmetry_class() -> None:
    report = enumerate_solutions(compiled_from(spec("queens_moves"), n=6), Limits())
    assert (report.count, report.in_all, report.symmetric) == (1, 4, True)
    unsymmetric = spec("queens_moves").replace("symmetry mirror, rotate\n", "")
    plain = enumerate_solutions(compiled_from(unsymmetric, n=6), Limits())
    assert (plain.count, plain.in_all, plain.symmetric) == (4, 4, False)


def test_search_all_counts_goal_states_not_paths() -> None:
    # queens placed on any free square: every arrangement is reached in n! orders, listed once
    anyhow = spec("queens_moves").replace("if ?c.row == count(queen) + 1", "")
    report = enumerate_solutions(compiled_from(anyhow, n=5), Limits())
    assert (report.count, report.in_all) == (2, 10)


def test_a_symmetry_that_does_not_map_the_solutions_onto_themselves_is_refused() -> None:
    with pytest.raises(SpecError) as err:
        enumerate_solutions(compiled_from(spec("number_circle") + "symmetry mirror\n"), Limits())
    (diag,) = err.value.diagnostics
    assert diag.message.startswith("'mirror' is not a symmetry of this puzzle's solutions")
    assert diag.pos.line == 22


def test_a_symmetry_checked_on_the_reachable_states_when_moves_have_conditions() -> None:
    text = "board line 5\npiece B b\nstart _ B _ _ _\ngoal _ _ _ _ B\n"
    text += "move s: ?x _ -> _ ?x along right if count(b) >= 1\n"
    # cells 2..5 are reachable; mirror takes 5 to 1: the reachable states are counted, not up to mirror
    one_way = search(compiled_from(text + "symmetry mirror\n"), reach=True)
    assert (one_way.reachable, one_way.reachable_up_to_symmetry) == (4, None)
    assert one_way.symmetry_note == (
        "'mirror' is not a symmetry of this puzzle from its start: it maps one of the reachable states to a "
        "state that is not one (the rules may keep it, the states this start reaches do not) (line 6, column 10)"
    )
    both_ways = text.replace("along right if", "along left, right if")
    result = search(compiled_from(both_ways + "symmetry mirror\n"), reach=True)
    assert (result.reachable, result.reachable_up_to_symmetry) == (5, 3)


def test_counts_up_to_symmetry_on_a_puzzle_with_a_safety_rule() -> None:
    result = search(compiled_from(spec("bishops")), count=True)
    assert result.length == 36 and result.count is not None and result.count_up_to_symmetry is not None
    assert result.count_up_to_symmetry * 4 >= result.count  # a group of four: mirror, flip + swap


def test_cheapest_with_a_symmetry_counts_cheapest_solutions_up_to_it() -> None:
    text = """
puzzle "priced frogs"
board line 3
piece A a
piece B b
start A _ B
goal B _ A
move step: A _ -> _ A along right cost 1
move step: _ B -> B _ along right cost 1
move jump: A B _ -> _ B A along right cost 2
move jump: _ A B -> B A _ along right cost 2
search cheapest
symmetry mirror + swap A B
"""
    result = search(compiled_from(text), count=True)  # A steps first or B does: one the other's mirror image
    assert (result.cost, result.count, result.count_up_to_symmetry) == (4, 2, 1)


def test_a_symmetry_that_changes_a_move_s_cost_is_not_one_of_a_cheapest_count() -> None:
    # the two cheapest crossings happen to be each other's image, but P1 alone crosses in 1
    # minute and P2 alone in 2: the swap is no symmetry of the costs, and is not counted over
    result = search(compiled_from(spec("bridge_torch") + "symmetry swap P1 P2\n"), count=True)
    assert (result.cost, result.count, result.count_up_to_symmetry) == (17, 2, None)
    assert result.symmetry_note == (
        "'swap P1 P2' is not a symmetry of this puzzle: it turns some move into one of another cost "
        "(line 17, column 10)"
    )


def test_reach_with_search_cheapest_counts_the_states_and_gives_the_cheapest_solution() -> None:
    """Which states can be reached does not depend on costs: the bridge's 30 (a plain count of
    the walkers on each side and the torch's side), the farthest 6 crossings away; the solution
    is the cheapest, 17 minutes."""
    result = search(compiled_from(spec("bridge_torch")), reach=True)
    assert (result.reachable, result.depth, result.reachable_goals) == (30, 6, 1)
    assert (result.cost, result.length) == (17, 5)


@pytest.mark.parametrize(
    ("name", "length"),
    [("hanoi", 15), ("lights_out", 5), ("water_jugs", 6), ("three_jugs", 7), ("sokoban", 18), ("rush_hour", 15)],
)
def test_every_kind_of_puzzle_searches_breadth_first_too(name: str, length: int) -> None:
    assert search(compiled_from(spec(name)), method="bfs").length == length


def test_a_heuristic_over_counters_drives_astar() -> None:
    text = spec("water_jugs") + "heuristic min(1, abs(B - want))\n"
    result = search(compiled_from(text))
    assert (result.method, result.length) == ("A*", 6)


def test_a_heuristic_that_divides_by_zero_stops_at_its_position() -> None:
    text = spec("water_jugs") + "heuristic 6 / S\n"
    with pytest.raises(SpecError) as err:
        search(compiled_from(text))
    (diag,) = err.value.diagnostics
    assert (diag.message, diag.pos.line) == ("division by zero", 16)


def test_quantifiers_over_rays_places_and_lines() -> None:
    rooks = "board grid 4 x 4\npiece R rook\nmove place: put R at ?c if ?c.row == count(rook) + 1\n"
    rooks += "safe: no rook r: some d in orthogonal: some c in ray(r, d): c is rook\n"
    rooks += "goal when count(rook) == 4\nsearch all\n"
    assert enumerate_solutions(compiled_from(rooks), Limits()).in_all == 24  # 4!
    lines = rooks.replace(
        "safe: no rook r: some d in orthogonal: some c in ray(r, d): c is rook",
        "safe: every l in rows, columns: count(c in l if c is rook) <= 1",
    )
    assert enumerate_solutions(compiled_from(lines), Limits()).in_all == 24
    places = "places A, B, C\npiece T token\nstart at A: T T T\ngoal when every p in places: count(token at p) == 1\n"
    places += "move m: take ?t from ?p, put ?t on ?q\n"
    assert search(compiled_from(places)).length == 2


def test_value_symmetries_for_placements() -> None:
    magic = spec("magic_square").replace("symmetry mirror, rotate", "symmetry mirror, rotate, complement")
    report = enumerate_solutions(compiled_from(magic), Limits())
    assert (report.count, report.in_all) == (1, 8)  # 10 - v maps the Lo Shu onto a turned copy


def test_next_is_one_step_where_first_follows_the_whole_ray() -> None:
    knights = "param n = 5\nboard grid n x n\npiece N horse\nmove place: put N at ?c if count(horse) < 4\n"
    knights += "safe: no horse q: some d in knight: next(q, d) is horse\ngoal when count(horse) == 4\nsearch all\n"
    assert enumerate_solutions(compiled_from(knights, n=4), Limits()).in_all == 412
    assert enumerate_solutions(compiled_from(knights), Limits()).in_all == 4436  # 5 x 5: leaps of two are no attack


def test_search_all_does_not_go_on_past_a_goal() -> None:
    knights = "board grid 5 x 5\npiece N horse\nmove place: put N at ?c\n"
    knights += "safe: no horse q: some d in knight: next(q, d) is horse\ngoal when count(horse) == 4\nsearch all\n"
    report = enumerate_solutions(compiled_from(knights), Limits())
    assert report.in_all == 4436 and report.states < 10_000  # not the 55,000 states of 5, 6, ... knights


KLOTSKI = """board grid 5 x 4
piece A general block 2 x 2
piece V vertical block 2 x 1
piece H horizontal block 1 x 2
piece S soldier
start:
    V A A V
    V A A V
    V H H V
    V S S V
    S _ _ S
goal:
    ? ? ? ?
    ? ? ? ?
    ? ? ? ?
    ? A A ?
    ? A A ?
move step: step ?p along orthogonal
"""


def test_symmetries_of_boards_with_blocks_keep_each_block_whole() -> None:
    result = search(compiled_from(KLOTSKI + "symmetry mirror\n"), reach=True)
    assert (result.length, result.reachable) == (116, 25955)  # Klotski: the published figures
    assert result.reachable_up_to_symmetry is not None
    assert 2 * result.reachable_up_to_symmetry > result.reachable > result.reachable_up_to_symmetry
    with pytest.raises(SpecError) as err:
        compiled_from(
            KLOTSKI.replace("grid 5 x 4", "grid 5 x 5")
            .replace("V A A V\n", "V A A V _\n")
            .replace("V H H V\n", "V H H V _\n")
            .replace("V S S V\n", "V S S V _\n")
            .replace("S _ _ S\n", "S _ _ S _\n")
            .replace("? ? ? ?\n", "? ? ? ? ?\n")
            .replace("? A A ?\n", "? A A ? ?\n")
            + "symmetry rotate\n"
        )
    assert (
        err.value.diagnostics[0].message == "'rotate' is not a symmetry of this puzzle: it changes the shape of block V"
    )


def test_search_any_with_a_symmetry_that_moves_the_goal_still_finds_it() -> None:
    """Found by the differential fuzzing: the mirror of this ring takes the start to the goal,
    and a search that explored one state of each class never entered the goal (it "proved"
    there is no solution). One state of each class is explored only where every symmetry keeps
    the goal."""
    from puzint.kernel import installed

    text = """
puzzle "mirrored ring"
board ring 3
pieces 1..2 "numbers"
start 1 _ 2
goal 1 2 _
move go: ?t _ -> _ ?t
symmetry mirror
search any
"""
    compiled = compiled_from(text)
    for engine in ("python", "compiled") if installed() else ("python",):
        result = search(compiled, engine=engine)
        assert result.status == "solved" and compiled.is_goal(result.path[-1][1]), engine
