"""Hand-written breadth-first solvers: the baseline puzint is measured against.

This is what a competent programmer would write for each puzzle without puzint: a state is a
plain `str` with one character per cell ("B", "W", "_" for the blank), successors are built by
slicing (around the blank, when every move of the puzzle involves it), and the search is a
layer-by-layer BFS with a dict of parents that stops as soon as the goal is generated.

Each solver returns `(length, states)`: the length of a shortest solution (None if there is
none) and how many states the search stored. Each `*_reachable` variant explores every state
reachable from the start and returns `(goal_depth, reachable)`.

No puzint code is imported here.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable

Successors = Callable[[Hashable], Iterable[Hashable]]


# ---------------------------------------------------------------------------- generic BFS


def path_length(parents: dict[Hashable, Hashable | None], state: Hashable) -> int:
    """Number of moves from the start to `state`, following the parent links back."""
    length = 0
    parent = parents[state]
    while parent is not None:
        length += 1
        parent = parents[parent]
    return length


def bfs_shortest(start: Hashable, goal: Hashable, successors: Successors) -> tuple[int | None, int]:
    """Plain BFS with early exit when the goal is generated: (moves, states stored)."""
    if start == goal:
        return 0, 1
    parents: dict[Hashable, Hashable | None] = {start: None}
    frontier = [start]
    while frontier:
        layer = []
        for state in frontier:
            for child in successors(state):
                if child not in parents:
                    parents[child] = state
                    if child == goal:
                        return path_length(parents, child), len(parents)
                    layer.append(child)
        frontier = layer
    return None, len(parents)


def bfs_reachable(start: Hashable, goal: Hashable, successors: Successors) -> tuple[int | None, int]:
    """Every state reachable from the start: (depth of the goal or None, number of states)."""
    seen = {start}
    frontier = [start]
    goal_depth = 0 if start == goal else None
    depth = 0
    while frontier:
        depth += 1
        layer = []
        for state in frontier:
            for child in successors(state):
                if child not in seen:
                    seen.add(child)
                    layer.append(child)
        if goal_depth is None and goal in seen:
            goal_depth = depth
        frontier = layer
    return goal_depth, len(seen)


# ---------------------------------------------------------------------------- frog jump
# BBB_WWW -> WWW_BBB. A black moves right: slides into the blank next to it, or jumps over
# exactly one white into the blank. A white moves left the same way over a black.


def frog_start_goal(n: int) -> tuple[str, str]:
    return "B" * n + "_" + "W" * n, "W" * n + "_" + "B" * n


def frog_successors(s: str) -> list[str]:
    b = s.index("_")
    out = []
    if b >= 1 and s[b - 1] == "B":  # B_ -> _B
        out.append(s[: b - 1] + "_B" + s[b + 1 :])
    if b >= 2 and s[b - 2] == "B" and s[b - 1] == "W":  # BW_ -> _WB
        out.append(s[: b - 2] + "_WB" + s[b + 1 :])
    if b + 1 < len(s) and s[b + 1] == "W":  # _W -> W_
        out.append(s[:b] + "W_" + s[b + 2 :])
    if b + 2 < len(s) and s[b + 2] == "W" and s[b + 1] == "B":  # _BW -> WB_
        out.append(s[:b] + "WB_" + s[b + 3 :])
    return out


def frog_shortest(n: int) -> tuple[int | None, int]:
    start, goal = frog_start_goal(n)
    return bfs_shortest(start, goal, frog_successors)


def frog_reachable(n: int) -> tuple[int | None, int]:
    start, goal = frog_start_goal(n)
    return bfs_reachable(start, goal, frog_successors)


# ---------------------------------------------------------------------------- oshidori
# BWBW..BW__ -> __WW..BB. Any two neighbouring stones move together, order kept, into the two
# blanks (which therefore always stay next to each other).


def oshidori_start_goal(n: int) -> tuple[str, str]:
    return "BW" * n + "__", "__" + "W" * n + "B" * n


def oshidori_successors(s: str) -> list[str]:
    b = s.index("__")
    out = []
    for i in range(b - 1):  # the pair s[i:i+2] lies left of the blanks
        out.append(s[:i] + "__" + s[i + 2 : b] + s[i : i + 2] + s[b + 2 :])
    for i in range(b + 2, len(s) - 1):  # the pair lies right of the blanks
        out.append(s[:b] + s[i : i + 2] + s[b + 2 : i] + "__" + s[i + 2 :])
    return out


def oshidori_shortest(n: int) -> tuple[int | None, int]:
    start, goal = oshidori_start_goal(n)
    return bfs_shortest(start, goal, oshidori_successors)


def oshidori_reachable(n: int) -> tuple[int | None, int]:
    start, goal = oshidori_start_goal(n)
    return bfs_reachable(start, goal, oshidori_successors)


# ---------------------------------------------------------------------------- white & black
# WW_BB -> BBWW_. A move swaps the blank with any stone anywhere on the line.


def white_black_start_goal(k: int) -> tuple[str, str]:
    return "W" * k + "_" + "B" * k, "B" * k + "W" * k + "_"


def white_black_successors(s: str) -> list[str]:
    b = s.index("_")
    out = []
    for i in range(b):
        out.append(s[:i] + "_" + s[i + 1 : b] + s[i] + s[b + 1 :])
    for i in range(b + 1, len(s)):
        out.append(s[:b] + s[i] + s[b + 1 : i] + "_" + s[i + 1 :])
    return out


def white_black_shortest(k: int) -> tuple[int | None, int]:
    start, goal = white_black_start_goal(k)
    return bfs_shortest(start, goal, white_black_successors)


def white_black_reachable(k: int) -> tuple[int | None, int]:
    start, goal = white_black_start_goal(k)
    return bfs_reachable(start, goal, white_black_successors)


# ---------------------------------------------------------------------------- knight exchange
# BBB______WWW -> WWW______BBB on a board of `rows` rows and 3 columns, cells numbered row by
# row. A move is one knight's chess-knight leap onto an empty square; knights of one colour
# are interchangeable.

KNIGHT_COLS = 3


def knight_leaps(rows: int, cols: int = KNIGHT_COLS) -> list[tuple[int, ...]]:
    """For each cell, the cells a knight standing there can leap to."""
    leaps = []
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        targets = []
        for dr, dc in ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                targets.append((r + dr) * cols + c + dc)
        leaps.append(tuple(targets))
    return leaps


def knights_start_goal(rows: int) -> tuple[str, str]:
    blanks = "_" * (rows * KNIGHT_COLS - 2 * KNIGHT_COLS)
    return "B" * KNIGHT_COLS + blanks + "W" * KNIGHT_COLS, "W" * KNIGHT_COLS + blanks + "B" * KNIGHT_COLS


def knights_successors_on(leaps: list[tuple[int, ...]]) -> Successors:
    def successors(s: str) -> list[str]:
        out = []
        for i, piece in enumerate(s):
            if piece != "_":
                for j in leaps[i]:
                    if s[j] == "_":
                        if i < j:
                            out.append(s[:i] + "_" + s[i + 1 : j] + piece + s[j + 1 :])
                        else:
                            out.append(s[:j] + piece + s[j + 1 : i] + "_" + s[i + 1 :])
        return out

    return successors


knights_successors = knights_successors_on(knight_leaps(4))  # the benchmarked 4 x 3 board


def knights_shortest(rows: int) -> tuple[int | None, int]:
    start, goal = knights_start_goal(rows)
    return bfs_shortest(start, goal, knights_successors_on(knight_leaps(rows)))


def knights_reachable(rows: int) -> tuple[int | None, int]:
    start, goal = knights_start_goal(rows)
    return bfs_reachable(start, goal, knights_successors_on(knight_leaps(rows)))


if __name__ == "__main__":
    for name, shortest, reachable, size in [
        ("frog", frog_shortest, frog_reachable, 8),
        ("oshidori", oshidori_shortest, oshidori_reachable, 6),
        ("white_black", white_black_shortest, white_black_reachable, 5),
        ("knights", knights_shortest, knights_reachable, 4),
    ]:
        print(f"{name}({size}): shortest={shortest(size)} reachable={reachable(size)}")


# ---------------------------------------------------------------------------- eight puzzle
# 3 x 3 tiles "12345678_" read row by row; the blank swaps with a neighbour.

EIGHT_NEIGHBOURS = [
    [n for n in (i - 3, i + 3, i - 1 if i % 3 else -1, i + 1 if i % 3 != 2 else -1) if 0 <= n < 9] for i in range(9)
]


def eight_successors(s: str) -> list[str]:
    blank = s.index("_")
    out = []
    for n in EIGHT_NEIGHBOURS[blank]:
        cells = list(s)
        cells[blank], cells[n] = cells[n], "_"
        out.append("".join(cells))
    return out


def eight_reachable(start: str = "8672543_1", goal: str = "12345678_") -> tuple[int | None, int]:
    return bfs_reachable(start, goal, eight_successors)


def bfs_count(start: Hashable, goal: Hashable, successors: Successors) -> tuple[int | None, int]:
    """Layered BFS summing path counts: (number of shortest solutions or None, states stored)."""
    ways = {start: 1}
    seen = {start}
    frontier = {start: 1}
    while frontier and goal not in frontier:
        following: dict[Hashable, int] = {}
        for state, n in frontier.items():
            for child in set(successors(state)):
                if child in following:
                    following[child] += n
                elif child not in seen:
                    seen.add(child)
                    following[child] = n
        ways.update(following)
        frontier = following
    return frontier.get(goal), len(seen)


def knights_square_count() -> tuple[int | None, int]:
    """The knight exchange on 4 x 4, four knights a side: the number of shortest solutions."""
    start, goal = "B" * 4 + "_" * 8 + "W" * 4, "W" * 4 + "_" * 8 + "B" * 4
    return bfs_count(start, goal, knights_successors_on(knight_leaps(4, 4)))
