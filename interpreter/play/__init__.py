"""Playing a puzzle by hand: the legal moves of a state and the ones a rule forbids, a game's
history (undo, redo, a hint from the engine), solution files that `puzint run --replay`
checks, and the terminal UI of `puzint play` (`app.py`, imported only by that command)."""
