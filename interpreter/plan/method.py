"""Which method searches for one shortest solution when a heuristic guides it and no method is
named: A*, which keeps every state it meets (fast where the room holds them, and where many
paths meet the same states), or IDA*, which keeps only its path (a room that never fills,
each state searched again at every deeper bound and along every path that reaches it).

A* first and IDA* once A*'s room is full (`Query.may_deepen`) is always right, but spends the
time A* took to fill its room (8-14 s on the fifteen puzzle) for nothing. So IDA* runs from
the start where the puzzle itself says A* would be the wrong choice:

- every move can be undone (IDA* never steps straight back, so a tree-like search remains);
- the paths from the start seldom meet: walking out from the start, breadth first, at least
  `TREE_LIKE` of the paths that do not step straight back reach a state no shorter path
  reached (measured on the first layers, `PROBE_PATHS` paths at most). Sliding tiles, pancakes
  and cubes are so; a worker walking a room, or cars that move independently, are not (IDA*
  would search every order of the same steps);
- and either tables derived from the spec guide it (a heuristic costly enough per state that
  IDA* is chosen for them wherever it fits) or the puzzle has more arrangements than A*'s
  room for states (`Limits.stored_cap`), so that A* may fill it.
"""

from __future__ import annotations

from ..compiler import CompiledPuzzle
from ..heuristics.abstraction import arrangements

TREE_LIKE = 0.5
PROBE_PATHS = 20_000
PROBE_DEPTH = 10


def deepening_fits(compiled: CompiledPuzzle, room: int, tables: bool) -> bool:
    """Whether IDA* should search from the start (see above); `room`: A*'s room for states,
    `tables`: derived tables guide the search."""
    if not compiled.undirected:
        return False
    if not tables and not _roomier_than(compiled, room):
        return False
    return tree_likeness(compiled) >= TREE_LIKE


def _roomier_than(compiled: CompiledPuzzle, room: int) -> bool:
    """Whether the puzzle's pieces have more arrangements on its board than `room` states
    (unknown, and so False, for puzzles with places or counters)."""
    puzzle = compiled.puzzle
    if puzzle.board is None or puzzle.places or puzzle.counters:
        return False
    return arrangements(compiled) > room


def tree_likeness(compiled: CompiledPuzzle) -> float:
    """Of the paths from the start that never step straight back, the share that reach a state
    no shorter path reached, over the first layers (up to `PROBE_DEPTH` moves, while the paths
    number at most `PROBE_PATHS`). 1: no two paths meet; a worker in an open room: far below."""
    start = compiled.start
    seen = {start}
    frontier = {start: 1}  # each state of the last layer, and how many paths reach it
    paths = reached = 0
    for depth in range(1, PROBE_DEPTH + 1):
        layer: dict[bytes, int] = {}
        walks = 0
        for state, count in frontier.items():
            successors = compiled.expand(state)
            onward = len(successors) - (1 if depth > 1 else 0)  # the step straight back left out
            walks += count * max(onward, 0)
            for after, _ in successors:
                if after not in seen:
                    layer[after] = layer.get(after, 0) + count
        if walks == 0 or (paths + walks > PROBE_PATHS and paths > 0):
            break
        paths += walks
        reached += len(layer)
        seen.update(layer)
        frontier = layer
    return reached / paths if paths else 0.0
