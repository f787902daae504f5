"""The .puz grammar, shipped as package data (`puzint.grammar`) so that wheels carry it."""
