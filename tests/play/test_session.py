"""Playing by hand: the moves offered are the search's own, a forbidden move names its rule,
undo and redo walk the history, and a hint is a step along a shortest solution."""

from __future__ import annotations

import pytest
from puzint.play.session import Game, Hint, options, refusals, shortest_from
from puzint.runner import load


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
