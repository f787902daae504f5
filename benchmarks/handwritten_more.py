"""Hand-written solvers for the jealous husbands and the numbers on a circle: the baseline
puzint is measured against in benchmarks/test_more.py and benchmarks/report_more.py.

This is what a competent programmer would write for each puzzle without puzint.

Jealous husbands: person i < n is husband H(i+1), person n + i is his wife W(i+1), so a group
of people is a bitmask with the husbands in the low n bits and the wives in the next n bits
(the same order as puzint's pieces, which makes replaying puzint's solutions easy). A group is
safe when it has no husband, or every wife in it has her own husband with her; the verdict
for every one of the 2**(2n) groups is precomputed once per call. The search is a layer-by-
layer BFS with a dict of parents that stops as soon as the goal is generated.

- two banks: a state is one int, the bitmask of the people on the right bank plus one bit for
  the boat (set: the boat is on the right);
- with an island: a state is a tuple (boat's place, people at place 0, at place 1, at place 2)
  with places 0 = left, 1 = island, 2 = right, and a table of the places the boat may go to.

Numbers on a circle: a depth-first count with a bitmask of the used circles and a bitmask of
the numbers still in hand, iterating over the set bits of the latter.

No puzint code is imported here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from .handwritten import bfs_reachable, bfs_shortest

# ---------------------------------------------------------------------------- generic BFS


def safe_groups(couples: int) -> list[bool]:
    """safe[group] for every bitmask of people: no wife with another man unless her husband is there."""
    husbands_mask = (1 << couples) - 1
    safe = []
    for group in range(1 << (2 * couples)):
        husbands = group & husbands_mask
        wives = group >> couples
        safe.append(not husbands or not (wives & ~husbands))
    return safe


def loads_of(group: int, seats: int) -> list[int]:
    """Every boat load (1..seats people) that can be taken from `group`, as bitmasks."""
    people = [1 << i for i in range(group.bit_length()) if group >> i & 1]
    return [sum(load) for size in range(1, seats + 1) for load in combinations(people, size)]


def two_bank_successors(couples: int, seats: int) -> Callable[[int], list[int]]:
    """Moves of the two-bank puzzle; a state is the right bank's bitmask | boat bit."""
    everyone = (1 << (2 * couples)) - 1
    boat = 1 << (2 * couples)
    safe = safe_groups(couples)

    def successors(state: int) -> list[int]:
        right = state & everyone
        on_right = state & boat
        here = right if on_right else everyone ^ right
        out = []
        for load in loads_of(here, seats):
            new_right = right ^ load
            if safe[load] and safe[new_right] and safe[everyone ^ new_right]:
                out.append(new_right | (on_right ^ boat))
        return out

    return successors


def two_bank_start_goal(couples: int) -> tuple[int, int]:
    everyone = (1 << (2 * couples)) - 1
    return 0, everyone | 1 << (2 * couples)


def jealous_shortest(couples: int, seats: int) -> tuple[int | None, int]:
    """Two banks: (length of a shortest solution or None, states stored)."""
    start, goal = two_bank_start_goal(couples)
    return bfs_shortest(start, goal, two_bank_successors(couples, seats))


def jealous_reachable(couples: int, seats: int) -> tuple[int | None, int]:
    """Two banks, every reachable state: (depth of the goal or None, number of states)."""
    start, goal = two_bank_start_goal(couples)
    return bfs_reachable(start, goal, two_bank_successors(couples, seats))


LEFT, ISLAND, RIGHT = 0, 1, 2
ROUTES = {
    "any": {LEFT: (ISLAND, RIGHT), ISLAND: (LEFT, RIGHT), RIGHT: (LEFT, ISLAND)},
    "banks": {LEFT: (ISLAND,), ISLAND: (LEFT, RIGHT), RIGHT: (ISLAND,)},
}

IslandState = tuple[int, int, int, int]


def island_successors(couples: int, seats: int, routes: str) -> Callable[[IslandState], list[IslandState]]:
    """Moves with an island; a state is (boat's place, people at left, at island, at right)."""
    safe = safe_groups(couples)
    goes_to = ROUTES[routes]

    def successors(state: IslandState) -> list[IslandState]:
        source = state[0]
        places = list(state[1:])
        here = places[source]
        out = []
        for load in loads_of(here, seats):
            if not safe[load] or not safe[here ^ load]:
                continue
            for target in goes_to[source]:
                arrived = places[target] | load
                if safe[arrived]:
                    new = places[:]
                    new[source] = here ^ load
                    new[target] = arrived
                    out.append((target, new[0], new[1], new[2]))
        return out

    return successors


def island_start_goal(couples: int) -> tuple[IslandState, IslandState]:
    everyone = (1 << (2 * couples)) - 1
    return (LEFT, everyone, 0, 0), (RIGHT, 0, 0, everyone)


def island_shortest(couples: int, seats: int, routes: str) -> tuple[int | None, int]:
    """Left bank, island, right bank; `routes` is "any" or "banks" (the boat only goes
    bank <-> island): (length of a shortest solution or None, states stored)."""
    start, goal = island_start_goal(couples)
    return bfs_shortest(start, goal, island_successors(couples, seats, routes))


# ---------------------------------------------------------------------------- numbers on a circle


def number_circle_count(n: int) -> int:
    """Solutions of the numbers on a circle with n circles: depth-first, bitmasks."""
    if n < 2:
        return 0

    def count(position: int, used: int, hand: int) -> int:
        if not hand:
            return 1
        total = 0
        numbers = hand
        while numbers:
            bit = numbers & -numbers
            numbers ^= bit
            target = (position + bit.bit_length() - 1) % n
            if not used >> target & 1:
                total += count(target, used | 1 << target, hand ^ bit)
        return total

    return count(0, 1, (1 << n) - 2)  # circle 0 used; numbers 1..n-1 in hand (bit k = number k)


def number_circle_count_pruned(n: int) -> int:
    """The same count with the seed program's extra rule: the last circle is known in advance
    (the sum 1 + ... + n-1 modulo n, i.e. n/2), so landing there before the last number is
    placed is cut off at once. Same answer, smaller search; the Perl seed searches this way."""
    if n < 2:
        return 0
    goal = n * (n - 1) // 2 % n

    def count(position: int, used: int, hand: int) -> int:
        if not hand:
            return 1
        total = 0
        numbers = hand
        last = not hand & (hand - 1)  # one number left
        while numbers:
            bit = numbers & -numbers
            numbers ^= bit
            target = (position + bit.bit_length() - 1) % n
            if not used >> target & 1 and (last or target != goal):
                total += count(target, used | 1 << target, hand ^ bit)
        return total

    return count(0, 1, (1 << n) - 2)


def number_circle_nodes(n: int) -> tuple[int, int]:
    """(solutions, moves made): the count of number_circle_count plus how many numbers were
    placed along the way, for comparing the size of the search with puzint's (not timed)."""
    moves = 0

    def count(position: int, used: int, hand: int) -> int:
        nonlocal moves
        if not hand:
            return 1
        total = 0
        for k in range(1, n):
            if hand >> k & 1:
                target = (position + k) % n
                if not used >> target & 1:
                    moves += 1
                    total += count(target, used | 1 << target, hand ^ 1 << k)
        return total

    solutions = count(0, 1, (1 << n) - 2)
    return solutions, moves


def number_circle_solutions(n: int) -> list[tuple[int, ...]]:
    """Every solution as the numbers placed in order, 0 last (for checking puzint's, not timed)."""
    out = []
    placed: list[int] = []

    def walk(position: int, used: int, hand: int) -> None:
        if not hand:
            out.append((*placed, 0))
            return
        for k in range(1, n):
            if hand >> k & 1:
                target = (position + k) % n
                if not used >> target & 1:
                    placed.append(k)
                    walk(target, used | 1 << target, hand ^ 1 << k)
                    placed.pop()

    walk(0, 1, (1 << n) - 2)
    return out


# ---------------------------------------------------------------------------- benchmarked instances


@dataclass(frozen=True)
class JealousCase:
    name: str
    overrides: dict[str, str]  # parameters of specs/jealous_husbands.puz
    couples: int
    seats: int
    island: str  # "none", "any" or "banks"
    reach: bool  # full reachability (the answer is "no solution") rather than a shortest solution
    length: int | None  # known length of a shortest solution, None: impossible
    states: int  # states the BFS stores (early exit; depends on the move order), or all reachable ones

    def solve(self) -> tuple[int | None, int]:
        """The hand-written solver for this case: (length or None, states)."""
        if self.island != "none":
            return island_shortest(self.couples, self.seats, self.island)
        if self.reach:
            return jealous_reachable(self.couples, self.seats)
        return jealous_shortest(self.couples, self.seats)


def _jealous(couples: int, seats: int, island: str, reach: bool, length: int | None, states: int) -> JealousCase:
    overrides = {"couples": str(couples), "seats": str(seats)}
    name = f"{couples} couples, {seats} seats"
    if island != "none":
        overrides["island"] = island
        name += f", island ({island})"
    if reach:
        name += ", all states"
    return JealousCase(name, overrides, couples, seats, island, reach, length, states)


JEALOUS_CASES = [
    _jealous(3, 2, "none", False, 11, 37),
    _jealous(4, 2, "none", True, None, 44),  # impossible: the 44 reachable states hold no goal
    _jealous(4, 3, "none", False, 9, 84),
    _jealous(4, 2, "any", False, 16, 2601),  # the boat goes between any two of the three places
    _jealous(4, 2, "banks", False, 26, 2081),  # the boat only goes bank <-> island
]

# known solution counts of the numbers on a circle (14: computed here, agreed by puzint and the Perl seed)
NUMBER_CIRCLE_COUNTS = {4: 2, 6: 4, 8: 24, 10: 288, 12: 3856, 14: 89328}


if __name__ == "__main__":
    print("jealous (3, 2):", jealous_shortest(3, 2))
    print("jealous (4, 2) reach:", jealous_reachable(4, 2))
    print("jealous (4, 3):", jealous_shortest(4, 3))
    print("island any (4, 2):", island_shortest(4, 2, "any"))
    print("island banks (4, 2):", island_shortest(4, 2, "banks"))
    for size in (4, 6, 8, 10, 12):
        print(f"number circle n={size}:", number_circle_count(size), number_circle_count_pruned(size))


def fifteen_idastar(start: str, width: int = 4) -> tuple[int, int]:
    """A sliding puzzle (tiles 1-9, A-F; `_` the hole, row by row) solved by IDA* with the
    Manhattan distance, never undoing the move just made: (moves, positions visited)."""
    tiles = "123456789ABCDEF"[: width * width - 1] + "_"
    hole_tile = width * width - 1
    board = [tiles.index(t) for t in start]  # each cell's tile number, the hole's last
    cells = range(width * width)
    far = [[abs(c // width - t // width) + abs(c % width - t % width) for c in cells] for t in range(hole_tile)]

    def beside(c: int, n: int) -> bool:
        return n in cells and (n // width == c // width or n % width == c % width)

    neighbours = [[n for n in (c - width, c + width, c - 1, c + 1) if beside(c, n)] for c in cells]
    visited = 0
    length = -1

    def search(hole: int, g: int, h: int, bound: int, came: int) -> int:
        nonlocal visited, length
        f = g + h
        if f > bound:
            return f
        if h == 0:
            length = g
            return -1
        least = 1 << 30
        for n in neighbours[hole]:
            if n == came:
                continue
            tile = board[n]
            board[hole], board[n] = tile, hole_tile
            visited += 1
            found = search(n, g + 1, h - far[tile][n] + far[tile][hole], bound, hole)
            board[n], board[hole] = tile, hole_tile
            if found < 0:
                return found
            least = min(least, found)
        return least

    h0 = sum(far[t][c] for c, t in enumerate(board) if t != hole_tile)
    bound = h0
    while True:
        found = search(board.index(hole_tile), 0, h0, bound, -1)
        if found < 0:
            return length, visited
        bound = found
