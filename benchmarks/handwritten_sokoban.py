"""A hand-written Sokoban solver for levels in XSB text: the baseline puzint's Sokoban is
checked and measured against. No puzint code is imported here.

XSB: `#` wall, ` ` (or `-`, `_`) floor, `.` target, `$` box, `*` box on a target, `@` the
worker, `+` the worker on a target. A collection file holds its levels one after another; a
line of the board has board characters only and at least one wall; any other line (blank, a
`;` comment, a title) ends the level it follows. Levels are numbered from 1.

Three optimal searches:

- `fewest_moves`: breadth-first over (worker square, box squares); every step, walk or push,
  costs 1.
- `fewest_pushes`: breadth-first over pushes only: a state is the box squares and the
  worker's reachable region (named by its smallest square); every push costs 1, walking is
  free.
- `fewest_pushes_then_moves`: Dijkstra over pushes, a state being the box squares and the
  square the worker stands on after a push, a push costing (1, the steps of the shortest
  walk to it + 1) compared in order: the fewest pushes, then the fewest moves.

All prune a push that puts a box on a dead square: a square from which no sequence of pushes
can bring a box to any target, even alone in the room. The live squares are found by pulling a
box backward from every target (a pull from b to b-d needs b-d and b-2d to be floor: the worker
stands on b-d and steps back to b-2d).

Run it on a collection: `python benchmarks/handwritten_sokoban.py [FILE] [LEVEL ...]` prints,
per level, the fewest moves and the fewest pushes, the states each search stored, and seconds
(FILE: benchmarks/microban.xsb by default, levels 1-3 by default). `--json --metric M LEVEL`
(M: moves, pushes or both) runs one search on one level and prints one line of JSON: its
answer (`steps`: moves or pushes; `cost`: [pushes, moves] for both), the states and seconds.
"""

from __future__ import annotations

import heapq
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BOARD_CHARS = set("#@+$*. -_")
FLOOR_CHARS = set(" -_")
DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))
MICROBAN = Path(__file__).resolve().parent / "microban.xsb"


@dataclass(frozen=True)
class Level:
    """A level's squares as (row, column) pairs: the floor the worker can reach (boxes aside),
    the targets, the boxes and the worker."""

    floor: frozenset[tuple[int, int]]
    targets: frozenset[tuple[int, int]]
    boxes: frozenset[tuple[int, int]]
    worker: tuple[int, int]


def xsb_levels(text: str) -> list[list[str]]:
    """The levels of a collection's text, each its board lines."""
    levels: list[list[str]] = []
    rows: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = line.rstrip()
        if line and "#" in line and set(line) <= BOARD_CHARS:
            rows.append(line)
        elif rows:
            levels.append(rows)
            rows = []
    if rows:
        levels.append(rows)
    return levels


def read_level(rows: list[str]) -> Level:
    walls, targets, boxes, worker = set(), set(), set(), None
    for r, line in enumerate(rows):
        for c, char in enumerate(line):
            if char == "#":
                walls.add((r, c))
            if char in ".*+":
                targets.add((r, c))
            if char in "$*":
                boxes.add((r, c))
            if char in "@+":
                worker = (r, c)
    if worker is None:
        raise ValueError("the level has no worker")
    floor = {worker}
    todo = [worker]
    while todo:  # the squares the worker could reach with no box in the way
        r, c = todo.pop()
        for dr, dc in DIRECTIONS:
            nxt = (r + dr, c + dc)
            if nxt not in walls and nxt not in floor and 0 <= nxt[0] < len(rows) and 0 <= nxt[1] < len(rows[nxt[0]]):
                floor.add(nxt)
                todo.append(nxt)
    return Level(frozenset(floor), frozenset(targets & floor), frozenset(boxes & floor), worker)


def live_squares(level: Level) -> frozenset[tuple[int, int]]:
    """The squares from which a box alone can be pushed onto some target: every target, and
    every square a box can be pulled to from one."""
    live = set(level.targets)
    todo = list(level.targets)
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRECTIONS:
            to, beyond = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if to in level.floor and beyond in level.floor and to not in live:
                live.add(to)
                todo.append(to)
    return frozenset(live)


@dataclass(frozen=True)
class Answer:
    steps: int | None  # moves or pushes; None where the level has no solution
    states: int  # how many states the search stored


def fewest_moves(level: Level) -> Answer:
    """The fewest moves (every step counts): breadth-first over (worker, boxes)."""
    live = live_squares(level)
    start = (level.worker, level.boxes)
    seen = {start}
    layer = [start]
    depth = 0
    while layer:
        following = []
        for worker, boxes in layer:
            if boxes <= level.targets:
                return Answer(depth, len(seen))
            for dr, dc in DIRECTIONS:
                step = (worker[0] + dr, worker[1] + dc)
                if step not in level.floor:
                    continue
                if step in boxes:
                    beyond = (step[0] + dr, step[1] + dc)
                    if beyond not in live or beyond in boxes:
                        continue
                    state = (step, (boxes - {step}) | {beyond})
                else:
                    state = (step, boxes)
                if state not in seen:
                    seen.add(state)
                    following.append(state)
        layer = following
        depth += 1
    return Answer(None, len(seen))


def _region(level: Level, worker: tuple[int, int], boxes: frozenset[tuple[int, int]]) -> set[tuple[int, int]]:
    region = {worker}
    todo = [worker]
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRECTIONS:
            nxt = (r + dr, c + dc)
            if nxt in level.floor and nxt not in boxes and nxt not in region:
                region.add(nxt)
                todo.append(nxt)
    return region


def _pushes(level: Level, live: frozenset[tuple[int, int]], worker: tuple[int, int], boxes: frozenset) -> Iterator:
    """Every push the worker can make from where he stands: (square he ends on, boxes after)."""
    region = _region(level, worker, boxes)
    for box in boxes:
        for dr, dc in DIRECTIONS:
            behind, beyond = (box[0] - dr, box[1] - dc), (box[0] + dr, box[1] + dc)
            if behind in region and beyond in live and beyond not in boxes:
                yield box, (boxes - {box}) | {beyond}


def fewest_pushes(level: Level) -> Answer:
    """The fewest pushes (walking is free): breadth-first over pushes, a state being the boxes
    and the smallest square of the worker's reachable region."""
    live = live_squares(level)
    start_region = _region(level, level.worker, level.boxes)
    start = (min(start_region), level.boxes)
    seen = {start}
    layer = [(level.worker, level.boxes)]
    depth = 0
    while layer:
        following = []
        for worker, boxes in layer:
            if boxes <= level.targets:
                return Answer(depth, len(seen))
            for stands, after in _pushes(level, live, worker, boxes):
                key = (min(_region(level, stands, after)), after)
                if key not in seen:
                    seen.add(key)
                    following.append((stands, after))
        layer = following
        depth += 1
    return Answer(None, len(seen))


def _walks(level: Level, worker: tuple[int, int], boxes: frozenset) -> dict[tuple[int, int], int]:
    """The fewest steps to every square the worker can walk to, boxes standing still."""
    far = {worker: 0}
    layer = [worker]
    while layer:
        following = []
        for r, c in layer:
            for dr, dc in DIRECTIONS:
                nxt = (r + dr, c + dc)
                if nxt in level.floor and nxt not in boxes and nxt not in far:
                    far[nxt] = far[(r, c)] + 1
                    following.append(nxt)
        layer = following
    return far


@dataclass(frozen=True)
class Both:
    pushes: int | None  # None where the level has no solution
    moves: int | None
    states: int


def fewest_pushes_then_moves(level: Level) -> Both:
    """The fewest pushes, then the fewest moves: Dijkstra over (worker square after a push,
    boxes), a push costing (1, walk + 1) in order; a state is final when it leaves the queue.
    The walks after the last push are never needed, so a goal ends the search when popped."""
    live = live_squares(level)
    start = (level.worker, level.boxes)
    best = {start: (0, 0)}
    done = set()
    queue = [(0, 0, 0, start)]
    tie = 0
    while queue:
        pushes, moves, _, state = heapq.heappop(queue)
        if state in done:
            continue
        done.add(state)
        worker, boxes = state
        if boxes <= level.targets:
            return Both(pushes, moves, len(best))
        walks = _walks(level, worker, boxes)
        for box in boxes:
            for dr, dc in DIRECTIONS:
                behind, beyond = (box[0] - dr, box[1] - dc), (box[0] + dr, box[1] + dc)
                if behind not in walks or beyond not in live or beyond in boxes:
                    continue
                after = (box, (boxes - {box}) | {beyond})
                cost = (pushes + 1, moves + walks[behind] + 1)
                if after not in best or cost < best[after]:
                    best[after] = cost
                    tie += 1
                    heapq.heappush(queue, (*cost, tie, after))
    return Both(None, None, len(best))


def one(path: Path, number: int, metric: str) -> dict[str, object]:
    """One search on one level, as the --json line says it."""
    levels = xsb_levels(path.read_text(encoding="utf-8"))
    level = read_level(levels[number - 1])
    began = time.perf_counter()
    if metric == "both":
        found = fewest_pushes_then_moves(level)
        seconds = time.perf_counter() - began
        cost = None if found.pushes is None else [found.pushes, found.moves]
        return {"level": number, "metric": metric, "cost": cost, "states": found.states, "seconds": seconds}
    answer = fewest_moves(level) if metric == "moves" else fewest_pushes(level)
    seconds = time.perf_counter() - began
    return {"level": number, "metric": metric, "steps": answer.steps, "states": answer.states, "seconds": seconds}


def main(argv: list[str]) -> int:
    if "--json" in argv:
        rest = [a for a in argv if a != "--json"]
        metric = "moves"
        if "--metric" in rest:
            i = rest.index("--metric")
            metric = rest[i + 1]
            del rest[i : i + 2]
        if metric not in ("moves", "pushes", "both"):
            raise SystemExit(f"--metric: moves, pushes or both, not {metric!r}")
        path = Path(rest[0]) if rest and not rest[0].isdigit() else MICROBAN
        numbers = [int(a) for a in rest if a.isdigit()] or [1]
        for n in numbers:
            print(json.dumps(one(path, n, metric)), flush=True)
        return 0
    path = Path(argv[0]) if argv and not argv[0].isdigit() else MICROBAN
    numbers = [int(a) for a in argv if a.isdigit()] or [1, 2, 3]
    levels = xsb_levels(path.read_text(encoding="utf-8"))
    print(f"{path.name}: {len(levels)} levels")
    print(f"{'level':>5} {'moves':>6} {'states':>9} {'s':>7} {'pushes':>7} {'states':>9} {'s':>7}")
    for n in numbers:
        level = read_level(levels[n - 1])
        began = time.perf_counter()
        moves = fewest_moves(level)
        middle = time.perf_counter()
        pushes = fewest_pushes(level)
        ended = time.perf_counter()
        print(
            f"{n:>5} {moves.steps!s:>6} {moves.states:>9,} {middle - began:>7.2f}"
            f" {pushes.steps!s:>7} {pushes.states:>9,} {ended - middle:>7.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
