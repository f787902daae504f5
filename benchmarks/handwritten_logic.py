"""Baselines for the logic-puzzle benchmarks (benchmarks/test_logic.py, benchmarks/report_logic.py).

Two kinds of program, neither importing puzint:

- Hand-written Python solvers, the short programs a person would write for each puzzle and make fast
  the usual way (bitmasks, no search framework, no per-node allocation beyond a recursive call):

  - Sudoku: backtracking on bitmasks of the digits each row, column and box already holds, always
    filling the empty cell with the fewest candidates next (a popcount table finds it); stops after
    `most` solutions, so the default 2 gives the solution and proves it unique.
  - Queens: the classic counter; columns and both diagonals as masks, one row at a time, the free
    squares of a row taken lowest bit first.
  - Latin squares: cell by cell in reading order, a mask of the symbols used per row and per column.
  - SEND + MORE = MONEY: column by column from the right, as by hand, so each column's sum fixes the
    letter below it and the carry; hundreds of times faster than the other program a person might
    write, trying all 1.8 million ways to give the eight letters distinct digits (itertools.permutations).

- CP-SAT models written directly against OR-tools (``ortools.sat.python.cp_model``): integer
  variables, AddAllDifferent, a linear equation, solutions collected in a callback; where every
  solution is wanted, enumerate_all_solutions on one worker (CP-SAT enumerates only so). Each
  returns its result with the seconds spent building the model and solving it, apart.

Why the baseline is fair: each solver is the natural program for its puzzle, using its rules and
nothing more (no symmetry breaking, no counting formulas, no tables of precomputed answers), it
answers the same question (every solution counted, or for Sudoku the solution and its uniqueness),
and it is tuned as far as plain Python reasonably goes, so a ratio against it is not flattered by a
slow baseline. The CP-SAT models are what a modeller writes in a few minutes, so their times show what
the same solver does without puzint's compilation in between.

Run as a script for a self-check of every answer: ``python benchmarks/handwritten_logic.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ortools.sat.python import cp_model

LETTERS = "SENDMORY"  # the letters of SEND + MORE = MONEY, in order of first appearance
DIGITS = 0x1FF  # bit d - 1 stands for the digit d
POPCOUNT = [bin(m).count("1") for m in range(1 << 9)]
UNITS = [(i // 9, i % 9, i // 27 * 3 + i % 9 // 3) for i in range(81)]  # row, column, box of each cell


def sudoku_solutions(grid: str, most: int = 2) -> list[str]:
    """Up to `most` solutions of a 9 x 9 Sudoku (81 characters, 0 or . for empty)."""
    cells = [0 if ch in "0." else int(ch) for ch in grid]
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    for i, v in enumerate(cells):
        if v:
            r, c, b = UNITS[i]
            rows[r] |= 1 << (v - 1)
            cols[c] |= 1 << (v - 1)
            boxes[b] |= 1 << (v - 1)
    empty = [i for i, v in enumerate(cells) if not v]  # empty[k:] are the cells still to fill
    found: list[str] = []

    def solve(k: int) -> None:
        """Fill empty[k:], the empty cell with the fewest candidates first; a dead end has none."""
        if k == len(empty):
            found.append("".join(map(str, cells)))
            return
        best, best_free, best_count = k, 0, 10
        for j in range(k, len(empty)):
            r, c, b = UNITS[empty[j]]
            free = DIGITS & ~(rows[r] | cols[c] | boxes[b])
            count = POPCOUNT[free]
            if count < best_count:
                best, best_free, best_count = j, free, count
                if count <= 1:
                    break
        empty[k], empty[best] = empty[best], empty[k]
        i = empty[k]
        r, c, b = UNITS[i]
        while best_free and len(found) < most:
            bit = best_free & -best_free
            best_free ^= bit
            cells[i] = bit.bit_length()
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            solve(k + 1)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
        cells[i] = 0

    solve(0)
    return found


def queens_count(n: int) -> int:
    """The number of ways to place n queens on an n x n board, none attacking another."""
    full = (1 << n) - 1

    def place(cols: int, left: int, right: int) -> int:
        """Completions of the rows below: columns taken, and squares the diagonals attack in the next row."""
        if cols == full:
            return 1
        total = 0
        free = full & ~(cols | left | right)
        while free:
            bit = free & -free
            free ^= bit
            total += place(cols | bit, (left | bit) << 1 & full, (right | bit) >> 1)
        return total

    return place(0, 0, 0)


def latin_count(n: int) -> int:
    """The number of n x n Latin squares on n symbols."""
    rows, cols = [0] * n, [0] * n
    full = (1 << n) - 1
    where = [divmod(i, n) for i in range(n * n)]
    last = n * n

    def fill(i: int) -> int:
        """Completions of the square from the i-th cell (in reading order) on."""
        if i == last:
            return 1
        r, c = where[i]
        total = 0
        free = full & ~(rows[r] | cols[c])
        while free:
            bit = free & -free
            free ^= bit
            rows[r] |= bit
            cols[c] |= bit
            total += fill(i + 1)
            rows[r] ^= bit
            cols[c] ^= bit
        return total

    return fill(0)


def send_more_money() -> list[dict[str, int]]:
    """Every solution of SEND + MORE = MONEY (each letter a different digit, S and M not 0).

    Column by column from the right, as by hand: the addends' letters of a column are given digits,
    the column's sum then fixes the letter of MONEY below it and the carry into the next column.
    """
    addends, total = ("SEND", "MORE"), "MONEY"  # their letters: LETTERS
    leading = {word[0] for word in (*addends, total)}
    columns = [[word[-1 - k] for word in addends if k < len(word)] for k in range(len(total))]
    digits: dict[str, int] = {}
    used = [False] * 10
    found: list[dict[str, int]] = []

    def allowed(letter: str, d: int) -> bool:
        """Whether an unassigned letter may take the digit d."""
        return not used[d] and (d != 0 or letter not in leading)

    def column(k: int, j: int, partial: int) -> None:
        """Column k (0 the rightmost), its addend letters from the j-th on, `partial` the carry plus the sum so far."""
        if k == len(total):
            if partial == 0:
                found.append({letter: digits[letter] for letter in LETTERS})
            return
        if j < len(columns[k]):
            letter = columns[k][j]
            if letter in digits:
                column(k, j + 1, partial + digits[letter])
                return
            for d in range(10):
                if allowed(letter, d):
                    digits[letter], used[d] = d, True
                    column(k, j + 1, partial + d)
                    del digits[letter]
                    used[d] = False
            return
        letter, d = total[-1 - k], partial % 10
        if letter in digits:
            if digits[letter] == d:
                column(k + 1, 0, partial // 10)
        elif allowed(letter, d):
            digits[letter], used[d] = d, True
            column(k + 1, 0, partial // 10)
            del digits[letter]
            used[d] = False

    column(0, 0, 0)
    return found


# ---------------------------------------------------------------------------- CP-SAT, directly


class _Collect(cp_model.CpSolverSolutionCallback):
    """Keeps the values of `variables` in each solution, stopping the search after `most` (None: never)."""

    def __init__(self, variables: list[cp_model.IntVar], most: int | None = None) -> None:
        super().__init__()
        self.variables = variables
        self.most = most
        self.found: list[list[int]] = []

    def on_solution_callback(self) -> None:
        """Record one solution."""
        self.found.append([self.value(v) for v in self.variables])
        if self.most is not None and len(self.found) >= self.most:
            self.stop_search()


class _Count(cp_model.CpSolverSolutionCallback):
    """Counts the solutions, keeping none."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def on_solution_callback(self) -> None:
        """Count one solution."""
        self.count += 1


def _enumerate(model: cp_model.CpModel, callback: cp_model.CpSolverSolutionCallback) -> float:
    """Enumerate the model's solutions into `callback` on one worker; the seconds it took."""
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    started = time.perf_counter()
    solver.solve(model, callback)
    return time.perf_counter() - started


def cpsat_sudoku(grid: str) -> tuple[list[str], float, float]:
    """Up to two solutions (a second would disprove uniqueness), the build seconds and the solve seconds."""
    started = time.perf_counter()
    model = cp_model.CpModel()
    x = [model.new_int_var(1, 9, f"x{i}") for i in range(81)]
    for i, ch in enumerate(grid):
        if ch not in "0.":
            model.add(x[i] == int(ch))
    for k in range(9):
        model.add_all_different(x[9 * k : 9 * k + 9])
        model.add_all_different(x[k::9])
        top, left = k // 3 * 3, k % 3 * 3
        model.add_all_different([x[9 * (top + r) + left + c] for r in range(3) for c in range(3)])
    built = time.perf_counter() - started
    collect = _Collect(x, most=2)
    solved = _enumerate(model, collect)
    return ["".join(map(str, values)) for values in collect.found], built, solved


def cpsat_queens_count(n: int) -> tuple[int, float, float]:
    """The number of n-queens solutions (a column per row, all different three ways), build and solve seconds."""
    started = time.perf_counter()
    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
    model.add_all_different(q)
    model.add_all_different([q[i] + i for i in range(n)])
    model.add_all_different([q[i] - i for i in range(n)])
    built = time.perf_counter() - started
    count = _Count()
    solved = _enumerate(model, count)
    return count.count, built, solved


def cpsat_latin_count(n: int) -> tuple[int, float, float]:
    """The number of n x n Latin squares, the build seconds and the solve seconds."""
    started = time.perf_counter()
    model = cp_model.CpModel()
    x = [[model.new_int_var(1, n, f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for k in range(n):
        model.add_all_different(x[k])
        model.add_all_different([x[r][k] for r in range(n)])
    built = time.perf_counter() - started
    count = _Count()
    solved = _enumerate(model, count)
    return count.count, built, solved


def cpsat_send_more_money() -> tuple[list[dict[str, int]], float, float]:
    """Every solution of SEND + MORE = MONEY, the build seconds and the solve seconds."""
    started = time.perf_counter()
    model = cp_model.CpModel()
    v = {letter: model.new_int_var(0, 9, letter) for letter in LETTERS}
    model.add_all_different(list(v.values()))
    model.add(v["S"] != 0)
    model.add(v["M"] != 0)

    def number(word: str) -> cp_model.LinearExpr:
        """The word as a linear expression in its letters' digits."""
        return cp_model.LinearExpr.weighted_sum(
            [v[letter] for letter in word], [10**i for i in reversed(range(len(word)))]
        )

    model.add(number("SEND") + number("MORE") == number("MONEY"))
    built = time.perf_counter() - started
    collect = _Collect(list(v.values()))
    solved = _enumerate(model, collect)
    return [dict(zip(LETTERS, values, strict=True)) for values in collect.found], built, solved


def _short(value: object) -> str:
    """The value's repr, cut to 70 characters for a one-line report."""
    text = repr(value)
    return text if len(text) <= 70 else text[:67] + "..."


def _self_check() -> None:
    """Run each solver once, print its answer and time, and assert the known answers.

    The CP-SAT counts stop at queens 10 and Latin squares 4: queens 12 and Latin squares 5 take CP-SAT
    tens of seconds each (benchmarks/report_logic.py times them).
    """
    sudoku = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
    solution = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    money = {"S": 9, "E": 5, "N": 6, "D": 7, "M": 1, "O": 0, "R": 8, "Y": 2}  # 9567 + 1085 = 10652
    hand: list[tuple[str, Callable[[], object], object]] = [
        ("sudoku", lambda: sudoku_solutions(sudoku), [solution]),
        ("queens 8", lambda: queens_count(8), 92),
        ("queens 10", lambda: queens_count(10), 724),
        ("queens 12", lambda: queens_count(12), 14_200),
        ("latin 4", lambda: latin_count(4), 576),
        ("latin 5", lambda: latin_count(5), 161_280),
        ("send more money", send_more_money, [money]),
    ]
    print("hand-written:")
    for name, run, expected in hand:
        started = time.perf_counter()
        result = run()
        seconds = time.perf_counter() - started
        print(f"  {name:16} {seconds:8.4f} s  {_short(result)}")
        assert result == expected, (name, result)
    direct: list[tuple[str, Callable[[], tuple[object, float, float]], object]] = [
        ("sudoku", lambda: cpsat_sudoku(sudoku), [solution]),
        ("queens 8", lambda: cpsat_queens_count(8), 92),
        ("queens 10", lambda: cpsat_queens_count(10), 724),
        ("latin 4", lambda: cpsat_latin_count(4), 576),
        ("send more money", cpsat_send_more_money, [money]),
    ]
    print("CP-SAT, directly:")
    for name, run, expected in direct:
        result, built, solved = run()
        print(f"  {name:16} build {built:.4f} s, solve {solved:.4f} s  {_short(result)}")
        assert result == expected, (name, result)


if __name__ == "__main__":
    _self_check()
