"""The compiler: rules expand into the right concrete moves, and labels say who moved."""

from __future__ import annotations

from puzint.model import board

from tests.conftest import compiled_from

HEAD = "board line 5\npiece B black\npiece W white\nstart B W _ B W\ngoal ? ? ? ? ?\n"


def successors(text: str, state: str) -> set[str]:
    compiled = compiled_from(text)
    codes = {"_": 0, "B": 1, "W": 2}
    board = bytes(codes[c] for c in state)
    inverse = {v: k for k, v in codes.items()}
    return {"".join(inverse[c] for c in child) for child, _ in compiled.expand(board)}


def test_slide_right_only() -> None:
    assert successors(HEAD + "move s: B _ -> _ B along right\n", "BW_BW") == set()
    assert successors(HEAD + "move s: B _ -> _ B along right\n", "B_WBW") == {"_BWBW"}


def test_jump_over_the_other_colour() -> None:
    text = HEAD + "move j: B W _ -> _ W B along right\n"
    assert successors(text, "BW_BW") == {"_WBBW"}


def test_default_direction_is_both_ways() -> None:
    assert successors(HEAD + "move s: B _ -> _ B\n", "_B_B_") == {"B__B_", "__BB_", "_BB__", "_B__B"}


def test_windows_anywhere_do_not_overlap() -> None:
    text = HEAD + "move pair: ?x ?y ... _ _ -> _ _ ... ?x ?y along right\n"
    assert successors(text, "BW__B") == {"__BWB"}
    assert successors(text, "B__WB") == {"BWB__"}


def test_same_variable_twice_means_same_piece() -> None:
    text = HEAD + "move twin: ?x ?x _ -> _ ?x ?x along right\n"
    assert successors(text, "BB_WB") == {"_BBWB"}
    assert successors(text, "BW_WB") == set()


def test_question_mark_on_the_right_keeps_the_cell() -> None:
    text = HEAD + "move hop: B ? _ -> _ ? B along right\n"
    assert successors(text, "BW_B_") == {"_WBB_"}


def test_duplicate_instances_are_merged() -> None:
    one_way = compiled_from(HEAD + "move pair: ?x ?y ... _ _ -> _ _ ... ?x ?y along right\n")
    both_ways = compiled_from(HEAD + "move pair: ?x ?y ... _ _ -> _ _ ... ?x ?y\n")
    assert one_way.instance_count == both_ways.instance_count


def test_labels_name_rule_piece_and_cells() -> None:
    compiled = compiled_from(HEAD + "move jump: B W _ -> _ W B along right\n")
    ((_, move),) = compiled.expand(compiled.start)
    label = compiled.label(move, compiled.start)
    assert label.rule == "jump"
    assert label.movers == (("B", "1", "3"),)


def test_pieces_that_vanish_are_labelled() -> None:
    text = "board line 3\npiece P peg\nstart P P _\ngoal _ _ P\nmove jump: P P _ -> _ _ P along right\n"
    compiled = compiled_from(text)
    ((_, move),) = compiled.expand(compiled.start)
    assert compiled.label(move, compiled.start).movers == (("P", "1", "3"), ("P", "2", None))
    assert compiled.invertible  # literals only: the un-jump is a move too
    assert compiled_from(text.replace("P P _ -> _ _ P", "P ? _ -> _ _ P")).invertible is False


def test_inverse_moves_give_predecessors() -> None:
    compiled = compiled_from(HEAD + "move j: B W _ -> _ W B along right\nmove s: B _ -> _ B along right\n")
    for child, move in compiled.expand(compiled.start):
        assert (compiled.start, move) in compiled.expand_back(child)


def test_grid_steps_stay_on_the_board() -> None:
    grid = board.grid(4, 3)
    assert grid.step(0, (1, 2)) == 5
    assert grid.step(2, (1, 2)) is None
    assert grid.name(5) == "r2c3"


def test_ring_steps_wrap_and_cells_count_from_1() -> None:
    ring = board.ring(6)
    assert ring.step(5, (0, 1)) == 0
    assert ring.step(0, (0, -1), 2) == 4
    assert [ring.name(i) for i in (0, 5)] == ["1", "6"]


def test_holes_in_a_grid_stop_steps() -> None:
    shaped = board.grid(2, 3, [True, False, True, True, True, True])
    assert shaped.size == 5 and shaped.kind == "picture"
    assert shaped.step(0, (0, 1)) is None  # r1c2 has no cell
    assert shaped.name(1) == "r1c3" and shaped.at(1, 2) is None
