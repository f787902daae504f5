"""Move families: every form of move compiled behind one interface.

A family turns a state into its successors, each labelled with a move number (`expand`),
and — for families that can be undone — into its predecessors (`expand_back`). Moves are
numbered by the compiled puzzle (`MoveIds`), so that a number always means one concrete
move: which rule, with which choices. What a family must check beyond its own form (the
safety rules) it asks of the puzzle's `Safety`.

- `SlideFamily`: `step` / `slide` / `slide ... until blocked` of one-cell pieces and blocks,
  with precomputed rays; can be undone (except `until blocked`).
- `CarryFamily`: loads between places with a carrier; the load, the place it leaves and the
  place it reaches are checked against the safety rules with answers remembered per contents.
- `FillFamily`: a filling (logic puzzles): the next open thing decided in each way its
  domain allows, the rules checked as soon as what they read is decided.
- `TileFamily`: a tiling: one more piece laid over the first open cell, in each way it fits.
- `GeneralFamily`: the core itself — choose the form's choice and every variable, check the
  guard on the state before the move, apply the effects in order — for guarded rewrites,
  actions (take, put, advance, set, add, let, toggle) and anything combined with them.
"""

from ..safety import Safety
from .base import Change, MoveIds, Successor
from .carry import CarryFamily
from .fill import FillFamily
from .general import GeneralFamily
from .slide import SlideFamily
from .tile import TileFamily

__all__ = [
    "CarryFamily",
    "Change",
    "FillFamily",
    "GeneralFamily",
    "MoveIds",
    "Safety",
    "SlideFamily",
    "Successor",
    "TileFamily",
]
