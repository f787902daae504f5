"""Solution files: written by `puzint play`, read back move by move, every mistake refused
at its line with what could have been played."""

from __future__ import annotations

from pathlib import Path

import pytest
from puzint.errors import SpecError
from puzint.files import CannotWrite
from puzint.play.record import read_solution, replay, solution_text, write_solution
from puzint.play.session import Game
from puzint.runner import load

# The classic answer (Alcuin's, as the seed article gives it): a couple over, the husband
# back, two wives over, one back, two husbands over, a couple back, two husbands over, a
# wife back, two wives over, a husband back, the last couple over.
JEALOUS = """\
# three jealous couples, two to a boat
cross H1 W1 -> right
cross H1 right -> left
cross W2 W3 -> right
cross W1 right -> left
cross H2 H3 -> right
cross H2 W2 -> left
cross H1 H2 -> right
cross W3 right -> left
cross W1 W2 -> right
cross H3 right -> left
cross H3 W3 -> right
"""


def test_the_classic_answer_replays_to_the_goal() -> None:
    jealous = load("specs/jealous_husbands.puz")
    replayed = replay(jealous, JEALOUS)
    assert len(replayed.moves) == 11 and jealous.is_goal(replayed.final(jealous))


def test_a_crossing_of_one_may_leave_out_where_it_starts() -> None:
    """A crossing of one is shown with where it starts (`cross H1 right → left`), a load's
    without: the same line without the place names the same move."""
    jealous = load("specs/jealous_husbands.puz")
    shorter = JEALOUS.replace(" right -> left", " -> left")
    assert shorter != JEALOUS
    replayed = replay(jealous, shorter)
    assert [m.words for m in replayed.moves] == [m.words for m in replay(jealous, JEALOUS).moves]


def test_what_play_saves_reads_back_as_the_same_moves() -> None:
    frog = load("specs/frog.puz", {"n": "2"})
    game = Game(frog)
    while not game.solved:
        hint = game.hint().move
        assert hint is not None
        game.play(hint)
    saved = solution_text(frog, game.played, "puzint run frog -p n=2 --replay frog.moves")
    assert saved.splitlines()[:2] == [
        "# Frog jump  n=2: 8 moves",
        "# check it: puzint run frog -p n=2 --replay frog.moves",
    ]
    assert replay(frog, saved).moves == game.played


def test_moves_of_one_name_and_a_variable_extent_are_named_by_it_and_replay() -> None:
    pancakes = load("specs/pancakes.puz")  # move flip: reverse 1 .. ?k
    # flipping the top 6, 5, 3, 2, 4, 7 and 4 sorts 3 6 1 5 7 2 4 (worked by hand)
    replayed = replay(pancakes, "flip 6\nflip 5\nflip 3\nflip 2\nflip 4\nflip 7\nflip 4\n")
    assert [move.words for move in replayed.moves][:2] == ["flip 6", "flip 5"]
    assert pancakes.is_goal(replayed.final(pancakes))
    with pytest.raises(SpecError, match="'flip' is not a legal move at the start"):
        replay(pancakes, "flip\n")


def test_a_move_a_rule_forbids_names_the_rule_and_the_place() -> None:
    jealous = load("specs/jealous_husbands.puz")
    with pytest.raises(SpecError) as caught:
        replay(jealous, "cross H1 W1 -> right\ncross H1 right -> left\n  cross H2 W3 -> right  # no\n", "mine.moves")
    (diagnostic,) = caught.value.diagnostics
    assert (diagnostic.pos.line, diagnostic.pos.column, diagnostic.pos.width) == (3, 3, 20)
    assert diagnostic.message == (
        "'cross H2 W3 -> right' is forbidden after move 2: the rule 'every wife w here: (some husband h here: "
        "h.couple == w.couple) or no husband is here' (line 28) fails at the boat"
    )
    assert caught.value.render().startswith("mine.moves:3:3: ")


def test_a_move_that_is_not_there_lists_the_moves_that_are() -> None:
    frog = load("specs/frog.puz", {"n": "1"})
    with pytest.raises(SpecError) as caught:
        replay(frog, "slide B 1->2\njump B 1->3\n")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.message == "'jump B 1->3' is not a legal move after move 1"
    assert diagnostic.expected == "one of: jump ○ 3 → 1"


def test_a_dead_end_says_so() -> None:
    frog = load("specs/frog.puz", {"n": "2"})
    with pytest.raises(SpecError, match=r"'slide W 5->4': no move can be made after move 2 \(_BBWW\)"):
        replay(frog, "slide B 2->3\nslide B 1->2\nslide W 5->4\n")


def test_a_file_is_read_with_the_bounds_of_any_source(tmp_path: Path) -> None:
    frog = load("specs/frog.puz", {"n": "1"})
    with pytest.raises(SpecError, match="cannot read the solution file"):
        read_solution(frog, tmp_path / "missing.moves")
    empty = tmp_path / "empty.moves"
    empty.write_text("# nothing played yet\n\n")
    assert read_solution(frog, empty).moves == []


def test_a_save_is_never_written_through_a_link_or_over_a_directory(tmp_path: Path) -> None:
    frog = load("specs/frog.puz", {"n": "1"})
    victim = tmp_path / "victim"
    victim.write_text("the user's own\n")
    (tmp_path / "frog.moves").symlink_to(victim)
    (tmp_path / "folder.moves").mkdir()
    with pytest.raises(CannotWrite) as linked:
        write_solution(tmp_path / "frog.moves", frog, [], "puzint run frog")
    assert str(linked.value) == f"cannot write {tmp_path / 'frog.moves'}: it is a symbolic link"
    with pytest.raises(CannotWrite) as folder:
        write_solution(tmp_path / "folder.moves", frog, [], "puzint run frog")
    assert str(folder.value) == f"cannot write {tmp_path / 'folder.moves'}: it is a directory"
    assert victim.read_text() == "the user's own\n" and list((tmp_path / "folder.moves").iterdir()) == []
    write_solution(tmp_path / "saved.moves", frog, [], "puzint run frog")
    assert (tmp_path / "saved.moves").read_text() == "# Frog jump  n=1: 0 moves\n# check it: puzint run frog\n"
