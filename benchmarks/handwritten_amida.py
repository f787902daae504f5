"""Hand-written breadth-first search for amida-kuji: the baseline puzint is measured against.

Amida-kuji: n vertical lines labelled A, B, C, ... at the top; each horizontal line swaps the
labels on two neighbouring verticals; draw the fewest lines that turn the top row into a given
bottom row. A state is the current row of labels, a plain `str` ("ABCDEFGHIJ"), and a move swaps
the characters at positions i and i+1. The fewest lines is the number of inversions of the
bottom row (every line fixes exactly one pair that is in the wrong order).

This is what a competent programmer writes without puzint: a layer-by-layer BFS over the adjacent
swaps, with a dict of parents that stops as soon as the goal is generated (shortest path), or a
set of seen states (full reachability: every permutation, n! states).

No puzint code is imported here.

    python benchmarks/handwritten_amida.py [BOTTOM]      # default JFBHIADEGC (28 lines)
"""

from __future__ import annotations

import sys
import time
from string import ascii_uppercase


def top_row(n: int) -> str:
    """The labels at the top: "ABC..." with n letters."""
    return ascii_uppercase[:n]


def inversions(row: str) -> int:
    """Pairs in the wrong order: the fewest horizontal lines that produce `row` from "ABC..."."""
    return sum(1 for i, a in enumerate(row) for b in row[i + 1 :] if a > b)


def successors(state: str) -> list[str]:
    """Every row one horizontal line away: the labels at i and i+1 swapped."""
    return [state[:i] + state[i + 1] + state[i] + state[i + 2 :] for i in range(len(state) - 1)]


def shortest(goal: str) -> tuple[list[int] | None, int]:
    """BFS from "ABC..." to `goal`, stopping when the goal is generated.

    Returns (the rungs of a shortest ladder, top to bottom, each the index i of the swapped pair
    i, i+1; None if there is none) and how many states the search stored.
    """
    start = top_row(len(goal))
    if start == goal:
        return [], 1
    parents: dict[str, tuple[str, int] | None] = {start: None}
    last = len(goal) - 1
    frontier = [start]
    while frontier:
        layer = []
        for state in frontier:
            for i in range(last):
                child = state[:i] + state[i + 1] + state[i] + state[i + 2 :]
                if child not in parents:
                    parents[child] = (state, i)
                    if child == goal:
                        return rungs(parents, child), len(parents)
                    layer.append(child)
        frontier = layer
    return None, len(parents)


def rungs(parents: dict[str, tuple[str, int] | None], state: str) -> list[int]:
    """Follow the parent links back to the start: the swapped positions, from the top down."""
    path = []
    link = parents[state]
    while link is not None:
        state, i = link
        path.append(i)
        link = parents[state]
    path.reverse()
    return path


def reachable(n: int) -> tuple[int, int]:
    """Every row reachable from "ABC..." (n letters): (number of states, depth of the last layer).

    The deepest row is the reversed one, n(n-1)/2 lines away; the count is n!.
    """
    start = top_row(n)
    seen = {start}
    last = n - 1
    frontier = [start]
    depth = -1
    while frontier:
        depth += 1
        layer = []
        for state in frontier:
            for i in range(last):
                child = state[:i] + state[i + 1] + state[i] + state[i + 2 :]
                if child not in seen:
                    seen.add(child)
                    layer.append(child)
        frontier = layer
    return len(seen), depth


def apply(start: str, path: list[int]) -> str:
    """The bottom row a ladder produces: the rungs applied from the top down."""
    row = list(start)
    for i in path:
        row[i], row[i + 1] = row[i + 1], row[i]
    return "".join(row)


def main(argv: list[str]) -> None:
    goal = argv[1] if len(argv) > 1 else "JFBHIADEGC"
    started = time.perf_counter()
    path, states = shortest(goal)
    elapsed = time.perf_counter() - started
    assert path is not None and apply(top_row(len(goal)), path) == goal
    print(f"{goal}: {len(path)} lines (inversions {inversions(goal)}), {states} states, {elapsed:.3f} s")
    print("rungs:", " ".join(map(str, path)))
    started = time.perf_counter()
    count, depth = reachable(len(goal))
    print(f"S{len(goal)}: {count} reachable rows, deepest {depth} lines, {time.perf_counter() - started:.3f} s")


if __name__ == "__main__":
    main(sys.argv)
