"""errors.suggest writes a "did you mean", and errors.suggested reads the name back out of the
message (what an editor's quick fix puts in place of the misspelt name)."""

from __future__ import annotations

from puzint.errors import suggest, suggested


def test_the_name_suggested_is_read_back_from_the_message() -> None:
    message = f"unknown direction 'rihgt'{suggest('rihgt', ['left', 'right', 'any'])}"
    assert message == "unknown direction 'rihgt' (did you mean 'right'?)"
    assert suggested(message) == "right"
    assert suggested(f"unknown piece 'Q'{suggest('Q', ['B', 'W'])}") is None  # nothing close: no suggestion
    assert suggested("a line of 7 cells has no direction 'up'") is None


def test_of_two_nearly_as_close_words_the_one_of_the_nearer_length_is_suggested() -> None:
    # difflib puts 'every' (0.714) a little before 'everyone' (0.706) for 'everybody'
    assert suggest("everybody", ["every", "everyone", "each"]) == " (did you mean 'everyone'?)"
    assert suggest("alnog", ["along", "all"]) == " (did you mean 'along'?)"
    assert suggest("zzz", ["along"]) == ""
