"""Elaboration: parameters, conditions and layouts become the one puzzle model."""

from __future__ import annotations

import pytest
from puzint.errors import SpecError
from puzint.model import ANY, Bind, Rewrite
from puzint.runner import search

from tests.conftest import SPECS, compiled_from, puzzle_from

LINE = """
param n = 2
board line 2*n + 1
piece B black
piece W white
start B*n _ W*n
goal W*n _ B*n
move slide: B _ -> _ B along right
move slide: W _ -> _ W along left
"""


def test_parameters_size_the_board_and_layouts() -> None:
    puzzle = puzzle_from(LINE, n=3)
    assert puzzle.board is not None and puzzle.board.size == 7
    assert puzzle.start.cells == (1, 1, 1, 0, 2, 2, 2)
    assert puzzle.params == {"n": 3}


def test_default_parameter() -> None:
    assert puzzle_from(LINE).start.cells == (1, 1, 0, 2, 2)


def test_override_of_the_wrong_type_is_reported_at_the_parameter() -> None:
    with pytest.raises(SpecError) as err:
        puzzle_from(LINE, n="many")
    assert "parameter n takes a whole number, got 'many'" in str(err.value)
    assert err.value.diagnostics[0].pos.line == 2


def test_unknown_override_lists_the_parameters() -> None:
    with pytest.raises(SpecError) as err:
        puzzle_from(LINE, m=3)
    assert str(err.value) == "test.puz: unknown parameter 'm'\n  expected one of: n"


def test_a_one_of_suggestion_is_written_as_the_user_writes_the_value() -> None:
    """A list parameter's close choice is suggested as `-p` takes it (`10,20`), not as
    Python prints a tuple (`(10, 20)`)."""
    spec = LINE.replace("param n = 2", "param n = 2\nparam sizes = [10, 20] one of [10, 20], [30, 40]")
    with pytest.raises(SpecError) as err:
        puzzle_from(spec, sizes="10,21")
    message = err.value.diagnostics[0].message
    assert message == "sizes must be one of 10,20, 30,40, got 10,21 (did you mean '10,20'?)"


def test_if_chooses_statements() -> None:
    text = LINE.replace(
        "goal W*n _ B*n", 'param t = "swap"\nif t == "swap":\n    goal W*n _ B*n\nelse:\n    goal B*n _ W*n'
    )
    assert (puzzle_from(text).goal.cells or ())[0] == 2
    assert (puzzle_from(text, t="same").goal.cells or ())[0] == 1


def test_later_parameters_can_use_earlier_ones() -> None:
    text = 'param row = "BB_WW"\nparam n = len(row)\nboard line n\npiece B b\npiece W w\nstart row\ngoal W_B\n'
    text += "move s: B _ -> _ B along right\nmove s: W _ -> _ W along left\n"
    puzzle = puzzle_from(text, row="B_W")
    assert puzzle.board is not None and puzzle.board.size == 3 and puzzle.start.cells == (1, 0, 2)


def test_goal_may_have_wildcards_and_rules_variables() -> None:
    text = LINE.replace("goal W*n _ B*n", "goal W ? _ ? B")
    puzzle = puzzle_from(text)
    assert puzzle.goal.cells == (2, ANY, 0, ANY, 1)
    assert not puzzle.goal.one_state_of_cells


def test_directions_default_to_both_ways_on_a_line() -> None:
    text = LINE.replace("move slide: B _ -> _ B along right", "move swap: ?a ?b -> ?b ?a")
    rule = puzzle_from(text).moves[0].form
    assert isinstance(rule, Rewrite)
    assert [d.vector for d in rule.directions] == [(0, 1), (0, -1)]
    assert rule.lhs == ((Bind("a"), Bind("b")),)


def test_custom_direction_with_a_leap() -> None:
    text = "board grid 3 x 3\npiece N knight\ndirection camel = leap(1, 2)\nstart N________\ngoal ________N\n"
    text += "move hop: N _ -> _ N along camel\n"
    rule = puzzle_from(text).moves[0].form
    assert isinstance(rule, Rewrite) and len(rule.directions) == 8


def test_all_errors_are_reported_together() -> None:
    text = "board line 3\npiece B b\nstart B X _\ngoal _ _ Y\nmove s: B _ -> _ B along up\n"
    with pytest.raises(SpecError) as err:
        puzzle_from(text)
    lines = [d.pos.line for d in err.value.diagnostics]
    assert lines == [3, 4, 5]


def test_safety_rules_work_on_boards_of_cells_too() -> None:
    puzzle = puzzle_from(LINE + "safe: count(black) >= 1\n")
    assert [r.scope for r in puzzle.safety] == ["state"]
    with pytest.raises(SpecError) as err:
        compiled_from(LINE + "safe: count(black) > n\n")
    (diag,) = err.value.diagnostics
    assert (diag.message, diag.pos.line) == ("the start already breaks this safety rule", 10)


@pytest.mark.parametrize(
    "moves",
    [
        "move paint: B _ -> B R along right\nmove hop: R _ -> _ R along right\n",  # R comes by a move
        "move drop: put R at ?c\nmove hop: R _ -> _ R along right\n",  # ... put on a cell
        "move drop: take ?t from hand, put ?t at ?c\nmove hop: step R along right\n",  # ... from the hand
    ],
)
def test_a_move_of_a_piece_that_another_move_brings_is_accepted(moves: str) -> None:
    text = "board line 4\npiece B black\npiece R red\nstart B _ _ _\nstart at hand: R\ngoal when count(red) >= 1\n"
    assert len(puzzle_from(text + moves).moves) == 2


def test_a_move_of_a_piece_that_no_move_brings_is_refused() -> None:
    text = "board line 4\npiece B black\npiece R red\nstart B _ _ _\nstart at hand: R\ngoal _ _ _ B\n"
    text += "move slide: B _ -> _ B along right\nmove keep: take ?t from hand, put ?t on hand\n"
    text += "move hop: R _ -> _ R along right\n"
    with pytest.raises(SpecError) as err:
        puzzle_from(text)
    (diag,) = err.value.diagnostics
    assert (diag.pos.line, diag.message) == (9, f"move hop can never be made: it needs R, {NEVER}")


NEVER = "which is not on the board at the start and no move puts it there"


FARMER = (SPECS / "farmer.puz").read_text()


@pytest.mark.parametrize(
    ("written", "rewritten"),
    [
        ("goal at right: everyone", "goal when count(at right) == 4"),
        (
            "    farmer is here or not (wolf is here and goat is here)",
            "    not (farmer is not here and wolf is here and goat is here)",
        ),
        (
            "    farmer is here or not (goat is here and cabbage is here)",
            "    farmer is here or count(here) == 1 or not (goat is here and cabbage is here)",
        ),
        (
            "    farmer is here or not (goat is here and cabbage is here)",
            "    farmer is here or every p in here: not (p is goat) or no cabbage is here",
        ),
    ],
)
def test_count_here_is_not_here_and_a_quantifier_after_or_read_as_written(written: str, rewritten: str) -> None:
    """`count(here)`, `count(at P)` (every piece there), `X is not here` and a quantifier
    right after `or`/`and` (its body to the end) say the same puzzle in other words: the same
    states, the same solution."""
    assert written in FARMER
    same = search(compiled_from(FARMER.replace(written, rewritten)), engine="python")
    plain = search(compiled_from(FARMER), engine="python")
    assert (same.length, same.states, same.path) == (plain.length, plain.states, plain.path) == (7, 10, plain.path)


def test_a_quantifier_after_and_keeps_its_body_to_the_end() -> None:
    """`a and every x: b or c` reads as `a and (every x: (b or c))`."""
    text = LINE + "safe: count(black) == 2 and every c in cells: c is empty or c is black or c is white\n"
    assert search(compiled_from(text), engine="python").reachable == search(compiled_from(LINE)).reachable == 5
    wrong = LINE + "safe: count(black) == 3 and every c in cells: c is empty or c is black or c is white\n"
    with pytest.raises(SpecError, match="the start already breaks this safety rule"):
        search(compiled_from(wrong), engine="python")


PANCAKES_BY_PATTERNS = """
board line 4
pieces 1..4 "pancakes"
start 3 1 4 2
goal 1 2 3 4
move flip2: ?a ?b -> ?b ?a along right from 1
move flip3: ?a ?b ?c -> ?c ?b ?a along right from 1
move flip4: ?a ?b ?c ?d -> ?d ?c ?b ?a along right from 1
"""


def test_a_pattern_from_a_cell_and_a_reversed_run_are_the_same_moves() -> None:
    """Flips written as patterns anchored at cell 1, and as `reverse 1 .. ?k`: the same
    states and distances; both stay moves that can be undone, searched from both ends."""
    by_patterns = compiled_from(PANCAKES_BY_PATTERNS)
    by_run = compiled_from(PANCAKES_BY_PATTERNS.split("move flip2")[0] + "move flip: reverse 1 .. ?k\n")
    assert by_patterns.instance_count == 3  # one placement each: at cell 1
    for compiled in (by_patterns, by_run):
        assert compiled.invertible and compiled.undirected
        solved = search(compiled, engine="python")
        assert (solved.length, solved.method) == (4, "bidirectional")
        reached = search(compiled, reach=True, from_goal=True, engine="python")
        assert reached.layers == [1, 3, 6, 11, 3]  # the 24 stacks of 4 by the fewest flips


def test_a_rotated_run_moves_every_content_one_cell_on() -> None:
    compiled = compiled_from('board line 4\npieces 1..4 "n"\nstart 1 2 3 4\ngoal 4 1 2 3\nmove spin: rotate 1 .. 4\n')
    assert compiled.invertible and not compiled.undirected  # its inverse is no move
    assert search(compiled, engine="python").length == 1


TOP_SPIN = """
param perm = [2, 5, 1, 4, 3, 7, 10, 6, 9, 8]
param n = len(perm)
param k = 4
board ring n
pieces 1..n "tokens"
start = perm
goal = 1..n
move spin: rotate 1 .. n
move back: cycle spin * -1
move turn: reverse 1 .. (k)
"""


def test_a_runs_ends_may_be_parameters_and_its_inverse_a_power() -> None:
    """Top-Spin of any number of tokens: the ring spun by `rotate 1 .. n` (n a parameter),
    back by `cycle spin * -1`, the turntable `reverse 1 .. (k)`. The lengths are a plain
    breadth-first search's (spin, its inverse and the reversal of cells 1-4 of a tuple)."""
    compiled = compiled_from(TOP_SPIN)
    spin, back, turn = (next(m for m in compiled.puzzle.moves if m.name == name) for name in ("spin", "back", "turn"))
    assert spin.actions[-1].cycles == (tuple(range(10)),)
    assert back.actions[-1].cycles == (tuple([0, *range(9, 0, -1)]),)
    assert turn.actions[-1].cycles == ((0, 3), (1, 2))
    assert search(compiled, engine="python").length == 24
    shorter = compiled_from(TOP_SPIN.replace("[2, 5, 1, 4, 3, 7, 10, 6, 9, 8]", "[3, 1, 2, 5, 4, 7, 6, 9, 8, 10]"))
    assert search(shorter, engine="python").length == 21
