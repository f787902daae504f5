"""Playing by hand: the moves offered are the search's own, a forbidden move names its rule,
undo and redo walk the history, and a hint is a step along a shortest solution."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.errors import SpecError
from puzint.play.record import replay, solution_text
from puzint.play.session import (
    Game,
    Hint,
    free_filling,
    options,
    parameters,
    pick,
    refusals,
    reloaded,
    shortest_from,
    stepped,
)
from puzint.runner import load

from tests.plain import sudoku as plain_sudoku


def test_the_moves_offered_are_the_searchs_in_reading_order() -> None:
    frog = load("specs/frog.puz", {"n": "1"})
    offered = options(frog, frog.start)
    assert [o.words for o in offered] == ["slide ● 1 → 2", "slide ○ 3 → 2"]
    assert [o.ascii_words for o in offered] == ["slide B 1 -> 2", "slide W 3 -> 2"]
    assert {o.after for o in offered} == {after for after, _ in frog.expand(frog.start)}


def test_jealous_husbands_start_nine_crossings_allowed_twelve_forbidden() -> None:
    """Counted by hand: a wife alone (3), a couple (3), two wives (3) may cross; a husband
    alone (3: his wife stays with the other husbands), two husbands (3: the third wife's
    husband stays with two wives) and a husband with another's wife (6, in the boat) may not."""
    jealous = load("specs/jealous_husbands.puz")
    assert len(options(jealous, jealous.start)) == 9
    refused = refusals(jealous, jealous.start)
    assert len(refused) == 12
    boat = [r for r in refused if r.words == "cross H1 W2 → right"]
    assert [(r.where, r.line) for r in boat] == [("the boat", 28)]


def test_undo_redo_and_a_move_after_undo_forgets_the_rest() -> None:
    game = Game(load("specs/frog.puz", {"n": "1"}))
    first, second = game.options()
    game.play(first)
    assert game.undo() and game.state == game.compiled.start and not game.undo()
    assert game.redo() and game.state == first.after and not game.redo()
    game.undo()
    game.play(second)
    assert game.played == [second] and not game.redo()
    with pytest.raises(ValueError, match="cannot be played here"):
        game.play(first)


def test_a_hint_is_one_step_nearer_the_goal_wherever_the_player_stands() -> None:
    game = Game(load("specs/frog.puz", {"n": "2"}))
    for _ in range(2):  # wander off the shortest path, where the goal can still be reached
        game.play(next(o for o in reversed(game.options()) if shortest_from(game.compiled, o.after).length is not None))
    while not game.solved:
        before = shortest_from(game.compiled, game.state).length
        hint = game.hint().move
        assert hint is not None and before is not None
        game.play(hint)
        assert shortest_from(game.compiled, game.state).length == before - 1
    assert game.hint() == Hint(None, "the goal is reached")


def test_a_dead_end_has_no_hint() -> None:
    game = Game(load("specs/frog.puz", {"n": "2"}))
    for words in ("slide ● 2 → 3", "slide ● 1 → 2"):  # _ ● ● ○ ○: no frog can move
        game.play(next(o for o in game.options() if o.words == words))
    assert game.options() == [] and not game.solved
    assert game.hint() == Hint(None, "the goal cannot be reached from here")


def test_a_puzzle_started_elsewhere_keeps_its_symmetries_honest() -> None:
    """The symmetries that fix the start are worked out again from the new start."""
    frog = load("specs/frog.puz", {"n": "2"})
    moved = frog.starting_at(frog.start)
    assert moved is frog
    after = options(frog, frog.start)[0].after
    elsewhere = frog.starting_at(after)
    assert elsewhere.start == after and elsewhere is not frog


# ---- a filling in any order of its cells
SUDOKU = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"


def _grid(compiled: CompiledPuzzle, state: bytes) -> str:
    return "".join(compiled.puzzle.symbol(state[c]) if state[c] else "0" for c in range(compiled.cells))


def test_a_shidoku_filled_from_its_last_cell_first_has_the_plain_solvers_288_solutions() -> None:
    """Every complete filling reached by filling the cells from the last to the first (an
    order the searches never take) is a solution, and every solution is reached."""
    shidoku = load("specs/shidoku.puz")
    free = free_filling(shidoku)
    assert free is not None
    found: set[str] = set()

    def walk(state: bytes) -> None:
        open_things = free.open(state)
        if not open_things:
            assert shidoku.is_goal(state)
            found.add(_grid(shidoku, state))
            return
        for after, _ in free.children(state, open_things[-1]):
            walk(after)

    walk(shidoku.start)
    assert found == set(plain_sudoku.solutions("0" * 16, 4, (2, 2)))


def test_a_sudoku_is_played_in_any_order_of_cells_and_replayed_so() -> None:
    sudoku = load("specs/sudoku.puz")
    assert _grid(sudoku, sudoku.start) == SUDOKU
    (solution,) = plain_sudoku.solutions(SUDOKU)
    game = Game(sudoku)
    cells = [c for c in range(81) if SUDOKU[c] == "0"]
    for cell in reversed(cells):  # from the last cell to the first
        name = sudoku.puzzle.board.name(cell)
        move = next(o for o in game.options() if o.movers == ((solution[cell], None, name),))
        game.play(move)
    assert game.solved and game.legal() and _grid(sudoku, game.state) == solution
    text = solution_text(sudoku, game.played, "puzint run sudoku")
    assert replay(sudoku, text).final(sudoku) == game.state


def test_a_value_a_row_holds_already_is_not_offered_and_a_hint_fills_a_cell_of_the_solution() -> None:
    sudoku = load("specs/sudoku.puz")
    (solution,) = plain_sudoku.solutions(SUDOKU)
    game = Game(sudoku)
    offered = {o.text for o in game.options()}
    assert "8 appears at r1c2" not in offered and "1 appears at r1c2" in offered  # r1c1 holds an 8
    hint = game.hint().move
    assert hint is not None
    ((digit, _, cell),) = hint.movers
    assert solution[_cells(sudoku)[cell]] == digit
    wrong = next(o for o in game.options() if o.movers[0][2] == cell and o.movers[0][0] != digit)
    game.play(wrong)  # a value the only solution does not have there
    assert game.hint() == Hint(None, "the goal cannot be reached from here")


def _cells(compiled: CompiledPuzzle) -> dict[str, int]:
    board = compiled.puzzle.board
    assert board is not None
    return {board.name(c): c for c in range(compiled.cells)}


def test_fillings_of_counters_or_of_values_that_may_be_empty_keep_the_specs_order() -> None:
    assert free_filling(load("specs/send_more_money.puz")) is None
    assert free_filling(load("specs/queens.puz")) is None
    assert free_filling(load("specs/frog.puz")) is None


# ---- restart, clicks, parameters
def test_restart_goes_back_to_the_start_and_redo_plays_the_moves_again() -> None:
    game = Game(load("specs/frog.puz", {"n": "1"}))
    assert not game.restart()
    first = game.options()[0]
    game.play(first)
    second = game.options()[0]
    game.play(second)
    assert game.restart() and game.state == game.compiled.start
    assert game.redo() and game.redo() and game.played == [first, second] and game.legal()


def test_a_click_never_empties_the_moves() -> None:
    frog = load("specs/frog.puz", {"n": "1"})  # ● · ○: slide ● 1 → 2, slide ○ 3 → 2
    moves = options(frog, frog.start)
    both = pick(moves, [], "2")
    assert both.names == ["2"] and both.moves == moves and both.play is None
    assert pick(moves, ["2"], "3").play == moves[1]  # 2 and 3: one move left, played
    alone = pick(moves, ["2"], "1")
    assert alone.play == moves[0]
    nothing = pick(moves, ["2"], "9")
    assert nothing.names == ["2"] and nothing.moves == moves and nothing.message == "no move touches 9"


def test_parameters_and_levels_are_changed_by_compiling_the_spec_again() -> None:
    frog = load("specs/frog.puz", {"n": "1"})
    assert parameters(frog) == {"n": "1"} and stepped(frog, 1) == {"n": "2"}
    bigger = reloaded(frog, {"n": "2"})
    assert bigger.puzzle.params["n"] == 2 and len(bigger.start) > len(frog.start)
    with pytest.raises(SpecError, match="there must be at least one frog of each colour"):
        reloaded(frog, {"n": "0"})
    assert stepped(load("specs/sudoku.puz"), 1) is None
