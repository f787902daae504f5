"""Allow `python -m puzint`."""

from .cli import program

program()
