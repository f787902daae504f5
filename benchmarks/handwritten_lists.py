"""Baselines for the benchmarks of line clues and cages (benchmarks/report_logic.py): a nonogram,
a KenKen, a Kakuro and a Killer Sudoku, each answered as `search any` is (one solution, and whether it is the
only one: up to two solutions found). Neither kind of program imports puzint.

- Hand-written Python solvers:

  - Nonogram: line solving, as a person does it: each line's cells that every placement of its
    runs (consistent with what is known) agrees on are fixed, lines revisited until nothing
    changes; then the first open cell is tried both ways.
  - KenKen: `tests/plain/kenken.py`, cell by cell, a cage checked when its last cell is filled.
  - Killer Sudoku: bitmasks of the digits each row, column, box and cage holds, the open cell
    with the fewest candidates first, a cage's sum bounding what its last open cells may hold.
  - Kakuro: the same, each run a mask and a sum so far, a digit kept only where both its runs
    can still reach their clues with the digits they have not used.

- CP-SAT models written directly against OR-tools: a boolean per nonogram cell and an automaton
  per line (AddAutomaton); KenKen's cells as integers, AddAllDifferent per line, a cage's sum,
  product (AddMultiplicationEquality), difference or quotient (AddAbsEquality,
  AddMultiplicationEquality on the two cells); a Kakuro's runs each an AddAllDifferent and a sum;
  the Killer Sudoku of `tests/plain/killer_sudoku.py`.
  Each returns its solutions with the seconds spent building the model and solving it, apart.
"""

from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model

# ---- nonogram


def _placements(clue: list[int], width: int) -> list[tuple[bool, ...]]:
    if not clue:
        return [(False,) * width]
    first, rest = clue[0], clue[1:]
    room = sum(rest) + len(rest)
    found = []
    for start in range(width - room - first + 1):
        head = (False,) * start + (True,) * first
        if rest:
            found += [(*head, False, *tail) for tail in _placements(rest, width - len(head) - 1)]
        else:
            found.append(head + (False,) * (width - len(head)))
    return found


def nonogram_solutions(rows: list[list[int]], columns: list[list[int]], most: int = 2) -> list[str]:
    """Up to `most` grids ('#' black, '.' empty, read row by row) by line solving and guessing."""
    height, width = len(rows), len(columns)
    lines = [[(r, c) for c in range(width)] for r in range(height)] + [
        [(r, c) for r in range(height)] for c in range(width)
    ]
    options = [_placements(clue, width) for clue in rows] + [_placements(clue, height) for clue in columns]
    found: list[str] = []

    def solve(grid: dict[tuple[int, int], bool], options: list[list[tuple[bool, ...]]]) -> None:
        changed = True
        while changed:
            changed = False
            for k, cells in enumerate(lines):
                known = [grid.get(cell) for cell in cells]
                kept = [p for p in options[k] if all(v is None or v == p[i] for i, v in enumerate(known))]
                if not kept:
                    return
                options[k] = kept
                for i, cell in enumerate(cells):
                    if known[i] is None and all(p[i] == kept[0][i] for p in kept):
                        grid[cell] = kept[0][i]
                        changed = True
        open_cells = [(r, c) for r in range(height) for c in range(width) if (r, c) not in grid]
        if not open_cells:
            found.append("".join("#" if grid[r, c] else "." for r in range(height) for c in range(width)))
            return
        for value in (True, False):
            if len(found) < most:
                solve({**grid, open_cells[0]: value}, list(options))

    solve({}, options)
    return found


def cpsat_nonogram(rows: list[list[int]], columns: list[list[int]]) -> tuple[list[str], float, float]:
    started = time.perf_counter()
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{r}_{c}") for c in range(len(columns))] for r in range(len(rows))]
    for clue, cells in [
        *zip(rows, x, strict=True),
        *zip(columns, [list(col) for col in zip(*x, strict=True)], strict=True),
    ]:
        states, transitions, state = [0], [], 0
        for length in clue:  # zeros, then `length` ones, then at least one zero (none after the last run)
            transitions.append((state, 0, state))
            for step in range(length):
                transitions.append((state + step, 1, state + step + 1))
            state += length
            transitions.append((state, 0, state + 1))
            state += 1
            states.append(state)
        last = state if clue else 0
        if clue:
            transitions.append((last, 0, last))
            finals = [last, last - 1]
        else:
            transitions.append((0, 0, 0))
            finals = [0]
        model.add_automaton(cells, 0, finals, transitions)
    built = time.perf_counter() - started
    found = _enumerate(model, [v for row in x for v in row], 2)
    return ["".join("#" if v else "." for v in values) for values in found[0]], built, found[1]


# ---- KenKen


def cpsat_kenken(n: int, cages: list[tuple[str, int, list[tuple[int, int]]]]) -> tuple[list[str], float, float]:
    started = time.perf_counter()
    model = cp_model.CpModel()
    x = [[model.new_int_var(1, n, f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for k in range(n):
        model.add_all_different(x[k])
        model.add_all_different([x[r][k] for r in range(n)])
    for op, target, cells in cages:
        members = [x[r - 1][c - 1] for r, c in cells]
        if op in ("+", "="):
            model.add(sum(members) == target)
        elif op == "*":
            model.add_multiplication_equality(target, members)
        elif op == "-":
            model.add_abs_equality(target, members[0] - members[1])
        else:
            a, b = members
            one = model.new_bool_var("")  # a = target * b, or b = target * a
            model.add(a == target * b).only_enforce_if(one)
            model.add(b == target * a).only_enforce_if(one.Not())
    built = time.perf_counter() - started
    found, solved = _enumerate(model, [v for row in x for v in row], 2)
    return ["".join(map(str, values)) for values in found], built, solved


# ---- Killer Sudoku


def killer_solutions(picture: list[str], sums: dict[str, int], most: int = 2) -> list[str]:
    """Up to `most` grids: bitmasks per row, column, box and cage; the fewest candidates first."""
    cage_of = [picture[i // 9][i % 9] for i in range(81)]
    cages = {letter: [i for i in range(81) if cage_of[i] == letter] for letter in set(cage_of)}
    grid = [0] * 81
    row, col, box = [0] * 9, [0] * 9, [0] * 9
    cage_mask = dict.fromkeys(cages, 0)
    cage_sum = dict.fromkeys(cages, 0)
    cage_left = {k: len(v) for k, v in cages.items()}
    found: list[str] = []

    def candidates(i: int) -> list[int]:
        letter = cage_of[i]
        taken = row[i // 9] | col[i % 9] | box[i // 27 * 3 + i % 9 // 3] | cage_mask[letter]
        rest = sums[letter] - cage_sum[letter]
        left = cage_left[letter]
        out = []
        for d in range(1, 10):
            if taken >> d & 1:
                continue
            if left == 1 and d != rest:
                continue
            # the other open cells of the cage need at least 1 + 2 + ... and at most 9 + 8 + ...
            low = sum(range(1, left)) if left > 1 else 0
            high = sum(range(9, 9 - left + 1, -1)) if left > 1 else 0
            if not low <= rest - d <= high:
                continue
            out.append(d)
        return out

    def solve() -> None:
        if len(found) >= most:
            return
        best, options = -1, list(range(10))
        for i in range(81):
            if grid[i] == 0:
                mine = candidates(i)
                if len(mine) < len(options):
                    best, options = i, mine
                    if not mine:
                        return
        if best < 0:
            found.append("".join(map(str, grid)))
            return
        r, c, b, letter = best // 9, best % 9, best // 27 * 3 + best % 9 // 3, cage_of[best]
        for d in options:
            bit = 1 << d
            grid[best] = d
            row[r] |= bit
            col[c] |= bit
            box[b] |= bit
            cage_mask[letter] |= bit
            cage_sum[letter] += d
            cage_left[letter] -= 1
            solve()
            grid[best] = 0
            row[r] ^= bit
            col[c] ^= bit
            box[b] ^= bit
            cage_mask[letter] ^= bit
            cage_sum[letter] -= d
            cage_left[letter] += 1

    solve()
    return found


def cpsat_killer(picture: list[str], sums: dict[str, int]) -> tuple[list[str], float, float]:
    started = time.perf_counter()
    model = cp_model.CpModel()
    x = [model.new_int_var(1, 9, f"x{i}") for i in range(81)]
    for k in range(9):
        model.add_all_different(x[9 * k : 9 * k + 9])
        model.add_all_different(x[k::9])
        top, left = k // 3 * 3, k % 3 * 3
        model.add_all_different([x[9 * (top + r) + left + c] for r in range(3) for c in range(3)])
    for letter, total in sums.items():
        members = [x[i] for i in range(81) if picture[i // 9][i % 9] == letter]
        model.add_all_different(members)
        model.add(sum(members) == total)
    built = time.perf_counter() - started
    found, solved = _enumerate(model, x, 2)
    return ["".join(map(str, values)) for values in found], built, solved


def _enumerate(model: cp_model.CpModel, variables: list[Any], most: int) -> tuple[list[list[int]], float]:
    """Up to `most` solutions on one worker, and the seconds the solve took."""
    found: list[list[int]] = []

    class Collect(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def on_solution_callback(self) -> None:
            found.append([int(self.value(v)) for v in variables])
            if len(found) >= most:
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    started = time.perf_counter()
    solver.solve(model, Collect())
    return found, time.perf_counter() - started


# ---- Kakuro


def kakuro_solutions(csv: str, most: int = 2) -> list[str]:
    """Up to `most` fillings (each white square's digit, read row by row): each run keeps a mask
    of its digits and its sum so far; the open square with the fewest candidates first, a
    candidate kept only where each of its two runs can still reach its clue with unused digits."""
    grid = [line.split(",") for line in csv.strip("\n").split("\n")]
    whites = [(r, c) for r, row in enumerate(grid) for c, sq in enumerate(row) if "\\" not in sq]
    index = {cell: i for i, cell in enumerate(whites)}
    runs: list[tuple[int, list[int]]] = []
    for r, row in enumerate(grid):
        for c, sq in enumerate(row):
            if "\\" in sq:
                down, across = sq.split("\\")
                for clue, (dr, dc) in ((across, (0, 1)), (down, (1, 0))):
                    cells, rr, cc = [], r + dr, c + dc
                    while rr < len(grid) and cc < len(grid[rr]) and "\\" not in grid[rr][cc]:
                        cells.append(index[rr, cc])
                        rr, cc = rr + dr, cc + dc
                    if cells:
                        runs.append((int(clue), cells))
    of_cell: list[list[int]] = [[] for _ in whites]
    for k, (_, cells) in enumerate(runs):
        for i in cells:
            of_cell[i].append(k)
    mask = [0] * len(runs)
    total = [0] * len(runs)
    left = [len(cells) for _, cells in runs]
    value = [0] * len(whites)
    found: list[str] = []

    def reachable(k: int, d: int) -> bool:
        rest = runs[k][0] - total[k] - d
        free = [x for x in range(1, 10) if not (mask[k] | 1 << d) >> x & 1]
        n = left[k] - 1
        return n <= len(free) and sum(free[:n]) <= rest <= sum(free[len(free) - n :]) if n else rest == 0

    def candidates(i: int) -> list[int]:
        return [
            d
            for d in range(1, 10)
            if all(not mask[k] >> d & 1 for k in of_cell[i]) and all(reachable(k, d) for k in of_cell[i])
        ]

    def solve() -> None:
        if len(found) >= most:
            return
        best, options = -1, list(range(10))
        for i in range(len(whites)):
            if value[i] == 0:
                mine = candidates(i)
                if len(mine) < len(options):
                    best, options = i, mine
                    if len(mine) <= 1:
                        break
        if best < 0:
            found.append("".join(map(str, value)))
            return
        for d in options:
            value[best] = d
            for k in of_cell[best]:
                mask[k] |= 1 << d
                total[k] += d
                left[k] -= 1
            solve()
            for k in of_cell[best]:
                mask[k] ^= 1 << d
                total[k] -= d
                left[k] += 1
            value[best] = 0

    solve()
    return found


def cpsat_kakuro(csv: str) -> tuple[list[str], float, float]:
    """The Kakuro as integers 1..9, AddAllDifferent and a sum per run; up to two solutions."""
    started = time.perf_counter()
    grid = [line.split(",") for line in csv.strip("\n").split("\n")]
    model = cp_model.CpModel()
    digit = {
        (r, c): model.new_int_var(1, 9, f"r{r}c{c}")
        for r, row in enumerate(grid)
        for c, sq in enumerate(row)
        if "\\" not in sq
    }
    for r, row in enumerate(grid):
        for c, sq in enumerate(row):
            if "\\" not in sq:
                continue
            down, across = sq.split("\\")
            for clue, (dr, dc) in ((across, (0, 1)), (down, (1, 0))):
                cells, rr, cc = [], r + dr, c + dc
                while (rr, cc) in digit:
                    cells.append(digit[rr, cc])
                    rr, cc = rr + dr, cc + dc
                if cells:
                    model.add_all_different(cells)
                    model.add(sum(cells) == int(clue))
    built = time.perf_counter() - started
    order = sorted(digit)
    found, solved = _enumerate(model, [digit[cell] for cell in order], 2)
    return ["".join(map(str, values)) for values in found], built, solved
