"""Small random specs across the language, for differential fuzzing (`test_differential`).

Each strategy writes the text of a spec a user could write: a board of every kind (a line, a
ring, a grid, a picture with holes, a graph) or places, stacks, counters and a cursor; pieces
plain, numbered or in groups; moves of every family (rewrites with variables and windows,
steps, slides, toggles, cycles and their powers, runs reversed or rotated, puts, takes,
carries, counter actions with lets), guards, costs
(0 included), safety rules of every scope, goals of cells, of places and of conditions,
symmetries, heuristics and every `search` directive. The sizes are small, so that every
question can be answered in full and checked by a plain walk.

Not every spec drawn is valid (a symmetry that is not one, a goal that cannot be met): a
refusal is an answer too, and must come with its position.
"""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import strategies as st

SYMBOLS = ("A", "B", "C")
KINDS = {"A": "a", "B": "b", "C": "c"}


@st.composite
def specs(draw: st.DrawFn) -> str:
    family = draw(
        st.sampled_from(["cells", "cells", "cells", "places", "stacks", "counters", "cursor", "blocks", "numbers"])
    )
    makers = {
        "cells": cells,
        "places": places,
        "stacks": stacks,
        "counters": counters,
        "cursor": cursor,
        "blocks": blocks,
        "numbers": numbers,
    }
    return makers[family](draw)


# ---- boards of cells


class Board(NamedTuple):
    lines: list[str]
    cells: int
    kind: str
    directions: list[str]  # what a move goes `along`
    straight: list[str]  # single directions (for first(x, d))
    symmetries: list[str]
    first_cell: str  # the first cell, as a predicate names it
    names: list[str]  # every cell's name, as a cycle or a run names it


def _board(draw: st.DrawFn) -> Board:
    kind = draw(st.sampled_from(["line", "ring", "grid", "picture", "graph"]))
    if kind == "line":
        n = draw(st.integers(3, 6))
        return Board(
            [f"board line {n}"],
            n,
            kind,
            ["right", "left", "any"],
            ["right", "left"],
            ["mirror", "reversal"],
            "cell(1)",
            [str(i) for i in range(1, n + 1)],
        )
    if kind == "ring":
        n = draw(st.integers(3, 6))
        return Board(
            [f"board ring {n}"],
            n,
            kind,
            ["clockwise", "anticlockwise", "any"],
            ["clockwise", "anticlockwise"],
            ["mirror", "rotate", "reversal"],
            "cell(1)",
            [str(i) for i in range(1, n + 1)],
        )
    if kind == "grid":
        rows, cols = draw(st.integers(2, 3)), draw(st.integers(2, 3))
        directions = ["orthogonal", "diagonal", "king", "knight", "up", "right", "down, left"]
        straight = ["up", "down", "left", "right", "up_left", "down_right"]
        return Board(
            [f"board grid {rows} x {cols}"],
            rows * cols,
            kind,
            directions,
            straight,
            ["mirror", "flip", "rotate"],
            "r1c1",
            [f"r{r}c{c}" for r in range(1, rows + 1) for c in range(1, cols + 1)],
        )
    if kind == "picture":
        squares = draw(st.lists(st.booleans(), min_size=9, max_size=9).filter(lambda s: sum(s) >= 4))
        rows = [" ".join("_" if s else "." for s in squares[r * 3 : r * 3 + 3]) for r in range(3)]
        first = squares.index(True)
        return Board(
            ["board:", *(f"    {row}" for row in rows)],
            sum(squares),
            kind,
            ["orthogonal", "king"],
            ["up", "down", "left", "right"],
            ["mirror"],
            f"r{first // 3 + 1}c{first % 3 + 1}",
            [f"r{i // 3 + 1}c{i % 3 + 1}" for i, s in enumerate(squares) if s],
        )
    n = draw(st.integers(3, 5))
    names = [f"n{i}" for i in range(1, n + 1)]
    links = [f"{names[i]} {draw(st.sampled_from(['-', '->']))} {names[i + 1]}" for i in range(n - 1)]
    if draw(st.booleans()):
        links.append(f"{names[-1]} {draw(st.sampled_from(['-', '->']))} {names[0]}")
    return Board(
        [f"board graph {', '.join(names)}", f"link {', '.join(links)}"], n, kind, ["link"], [], [], "n1", names
    )


def _layout(draw: st.DrawFn, n: int, symbols: list[str], empty_at_least: int = 1) -> list[str]:
    cells = draw(st.lists(st.sampled_from(["_", *symbols]), min_size=n, max_size=n))
    for i in draw(st.lists(st.integers(0, n - 1), min_size=empty_at_least, max_size=empty_at_least)):
        cells[i] = "_"
    return cells


def cells(draw: st.DrawFn) -> str:
    board = _board(draw)
    n, kind, directions = board.cells, board.kind, board.directions
    symbols = list(SYMBOLS[: draw(st.integers(1, 3))])
    lines = ['puzzle "fuzz"', *board.lines]
    lines += [f"piece {s} {KINDS[s]}" for s in symbols]
    frame = kind != "graph"
    if frame:
        lines.append("shape pair = (0, 0), (0, 1)")
        around = "orthogonal" if kind in ("grid", "picture") else "(0, 1), (0, -1)"
        lines.append(f"neighbourhood plus = (0, 0), {around}")
    counter = draw(st.booleans())
    if counter:
        lines.append(f"counter K = 0 in 0..{draw(st.integers(1, 3))}")
    start = _layout(draw, n, symbols)
    lines.append("start " + " ".join(start))
    mode = draw(st.sampled_from(["shortest", "shortest", "count", "reach", "cheapest", "all", "any"]))
    goal = draw(st.sampled_from(["permuted", "pattern", "condition"]))
    if goal == "permuted":
        lines.append("goal " + " ".join(draw(st.permutations(start))))
    elif goal == "pattern":
        target = _layout(draw, n, symbols, 0)
        keep = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        lines.append("goal " + " ".join(t if k else "?" for t, k in zip(target, keep, strict=True)))
    else:
        s = draw(st.sampled_from(symbols))
        lines.append(
            "goal when "
            + draw(
                st.sampled_from(
                    [
                        f"count({KINDS[s]}) == {draw(st.integers(0, 3))}",
                        f"{board.first_cell} is {KINDS[s]}",
                        f"count({KINDS[s]}) <= 1 and not ({board.first_cell} is empty)",
                    ]
                )
            )
        )
    for i in range(draw(st.integers(1, 3))):
        if draw(st.integers(0, 4)) == 0:
            lines.append(_permutation_move(draw, i, board, lines, mode == "cheapest"))
        else:
            lines.append(_cell_move(draw, i, symbols, directions, frame, counter, mode == "cheapest"))
    if draw(st.integers(0, 3)) == 0:
        s = draw(st.sampled_from(symbols))
        rules = [f"count({KINDS[s]}) >= 1", f"count({KINDS[s]}) <= 2"]
        if board.straight:
            d = draw(st.sampled_from(board.straight))
            rules.append(f"no {KINDS[s]} x: first(x, {d}) is {KINDS[s]}")
        if counter:
            rules.append("K <= 2")
        lines.append("safe: " + draw(st.sampled_from(rules)))
    if board.symmetries and draw(st.integers(0, 2)) == 0:
        parts = [draw(st.sampled_from(board.symmetries))]
        if len(symbols) >= 2 and draw(st.booleans()):
            parts.append(f"swap {symbols[0]} {symbols[1]}")
        lines.append("symmetry " + " + ".join(parts))
    if mode != "shortest":
        lines.append(f"search {mode}")
    if mode in ("shortest", "cheapest") and goal == "permuted" and draw(st.integers(0, 3)) == 0:
        lines.append("heuristic " + draw(st.sampled_from(["misplaced()", "0", "count(a)"])))
    return "\n".join(lines) + "\n"


def _permutation_move(draw: st.DrawFn, i: int, board: Board, lines: list[str], costed: bool) -> str:
    """A move of cycles (or a power of one drawn before), or a run reversed or rotated."""
    cells = draw(st.permutations(board.names))
    earlier = [line.split(":")[0].split()[1] for line in lines if line.startswith("move ") and ": cycle (" in line]
    forms = [
        f"cycle ({' '.join(cells[:2])})",
        f"cycle ({' '.join(cells[:3])})" + (f" ({' '.join(cells[3:5])})" if len(cells) >= 5 else ""),
    ]
    if earlier:
        forms.append(f"cycle {draw(st.sampled_from(earlier))} * {draw(st.sampled_from([-1, 2]))}")
    if board.kind in ("line", "ring", "grid"):
        forms.append(f"{draw(st.sampled_from(['reverse', 'rotate']))} {board.names[0]} .. ?k")
    text = f"move m{i}: {draw(st.sampled_from(forms))}"
    if draw(st.integers(0, 3)) == 0:
        text += " if count(a) >= 1"
    if costed:
        text += " cost " + draw(st.sampled_from(["0", "1", "2"]))
    return text


def _cell_move(
    draw: st.DrawFn, i: int, symbols: list[str], directions: list[str], frame: bool, counter: bool, costed: bool
) -> str:
    x = draw(st.sampled_from([*symbols, "?x"]))
    y = draw(st.sampled_from([*symbols, "?y"]))
    along = f" along {draw(st.sampled_from(directions))}"
    along_or_not = along if draw(st.integers(0, 3)) else ""  # a rewrite has the board's default directions
    forms = [
        f"{x} _ -> _ {x}{along_or_not}",
        f"{x} {y} _ -> _ {y} {x}{along_or_not}",
        f"{x} {y} _ -> _ _ {x}{along_or_not}",
        f"?x ?y -> ?y ?x{along_or_not}",
        "?x ... _ -> _ ... ?x",
        f"step {x if x != '?x' else '?p'}{along}",
        f"slide ?p{along}" + draw(st.sampled_from(["", " until blocked", " until blocked by pieces"])),
        f"put {draw(st.sampled_from(symbols))} at ?c",
    ]
    if frame:
        a = draw(st.sampled_from(symbols))
        second = f" {draw(st.sampled_from(symbols))}" if draw(st.booleans()) else ""
        if second.strip() != a:
            forms.append(f"toggle {a}{second} in {draw(st.sampled_from(['pair', 'plus']))}")
    form = draw(st.sampled_from(forms))
    text = f"move m{i}: {form}"
    if counter and draw(st.booleans()):
        text += f", add {draw(st.integers(1, 2))} to K"
    guards = [f"count({KINDS[draw(st.sampled_from(symbols))]}) >= 1", "count(a) < 3"]
    if "?x" in form.split("->")[0]:
        guards.append(f"?x is {KINDS[draw(st.sampled_from(symbols))]}")
    if counter:
        guards.append("K < 2")
    if "?c" in form:
        guards.append("?c.col >= 2" if frame else "true")
    if draw(st.integers(0, 2)) == 0:
        text += " if " + draw(st.sampled_from(guards))
    if costed:
        costs = ["0", "1", "2", "3", "count(a)"]
        if counter:
            costs.append("K")
        text += " cost " + draw(st.sampled_from(costs))
    return text


# ---- places, stacks, counters, a cursor


def places(draw: st.DrawFn) -> str:
    names = ["left", "right"] + (["island"] if draw(st.booleans()) else [])
    lines = ['puzzle "fuzz places"', f"board places {', '.join(names)}"]
    grouped = draw(st.booleans())
    if grouped:
        lines.append(f"group g = {draw(st.sampled_from(['1..2', '[1, 2]', '[1, 1, 2]', '[1, 3]']))}")
        lines.append("piece H h per g")
        lines.append("piece W w per g")
        kinds = ["h", "w"]
    else:
        kinds = [KINDS[s] for s in SYMBOLS[: draw(st.integers(1, 3))]]
        lines += [f"piece {s} {KINDS[s]}" for s in SYMBOLS[: len(kinds)]]
    mode = draw(st.sampled_from(["shortest", "count", "reach", "cheapest"]))
    carrier = draw(st.booleans())
    if carrier:
        lines.append("carrier boat at left")
    if grouped:
        lines.append("start at left: everyone")
    else:
        counts = [draw(st.integers(1, 2)) for _ in kinds]
        lines.append("start at left: " + " ".join(f"{s}*{k}" for s, k in zip(SYMBOLS, counts, strict=False)))
    lines.append("goal at right: everyone" if draw(st.integers(0, 2)) else f"goal when count({kinds[0]} at right) >= 1")
    if carrier:
        move = f"move cross: carry 1..{draw(st.integers(1, 2))} in boat"
        if draw(st.integers(0, 2)) == 0:
            move += f" with {kinds[0]}"
    else:
        move = "move go: take ?p from ?a, put ?p on ?b"
    if draw(st.integers(0, 2)) == 0:
        move += " if " + draw(st.sampled_from([f"count({kinds[0]}) >= 1", f"count({kinds[-1]} at left) <= 1"]))
    if mode == "cheapest":
        costs = ["1", "0", "2"] + (["count(" + kinds[0] + " in load)", "max(p.g for p in load)"] if carrier else [])
        if grouped and carrier:
            costs.append("max(p.g for p in load)")
        cost = draw(st.sampled_from(costs))
        if not (cost.startswith("max(p.g") and not grouped):
            move += f" cost {cost}"
    lines.append(move)
    if len(kinds) >= 2 and draw(st.booleans()):
        a, b = kinds[0], kinds[1]
        scope = draw(st.sampled_from(["in places", "everywhere", "in loads"] if carrier else ["in places"]))
        rule = draw(
            st.sampled_from(
                [
                    f"no {a} is here or count({a} here) >= count({b} here)",
                    f"every {b} x here: (some {a} y here: y.g == x.g) or no {a} is here"
                    if grouped
                    else f"count({b} here) <= 2",
                ]
            )
        )
        lines.append(f"safe {scope}: {rule}")
    if draw(st.integers(0, 3)) == 0:
        parts = [f"swap {names[0]} {names[1]}"]
        if not grouped and len(kinds) >= 2 and draw(st.booleans()):
            parts.append("swap A B")
        lines.append("symmetry " + " + ".join(parts))
    if mode != "shortest":
        lines.append(f"search {mode}")
    return "\n".join(lines) + "\n"


def stacks(draw: st.DrawFn) -> str:
    discs = draw(st.integers(1, 3))
    lines = ['puzzle "fuzz stacks"', "stacks P, Q, R", f'pieces 1..{discs} "discs"']
    lines.append(f"start at P = reversed(1..{discs})" if draw(st.booleans()) else f"start at P = 1..{discs}")
    lines.append(
        draw(st.sampled_from(["goal at R: everyone", "goal at R = 1..1", "goal when Q is empty and P is empty"]))
    )
    guard = draw(st.sampled_from(["", " if ?q is empty or top(?q) > ?d", " if ?q is empty or top(?q) < ?d"]))
    mode = draw(st.sampled_from(["shortest", "count", "reach", "cheapest"]))
    cost = f" cost {draw(st.sampled_from(['?d', '1', '0']))}" if mode == "cheapest" else ""
    lines.append(f"move shift: take ?d from ?p, put ?d on ?q{guard}{cost}")
    if draw(st.integers(0, 2)) == 0:
        lines.append("symmetry swap P Q")
    if mode != "shortest":
        lines.append(f"search {mode}")
    return "\n".join(lines) + "\n"


def counters(draw: st.DrawFn) -> str:
    a, b = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    lines = [
        'puzzle "fuzz counters"',
        f"counter X = {draw(st.integers(0, a))} in 0..{a}",
        f"counter Y = {draw(st.integers(0, b))} in 0..{b}",
    ]
    lines.append("goal when " + draw(st.sampled_from([f"X == {draw(st.integers(0, a))}", "X + Y == 3", "X == Y"])))
    mode = draw(st.sampled_from(["shortest", "count", "reach", "cheapest"]))
    menu = [
        "move fill: set ?j = ?j.max",
        "move empty: set ?j = 0",
        "move pour: let k = min(?a, ?b.max - ?b), set ?a = ?a - k, set ?b = ?b + k",
        f"move inc: add {draw(st.integers(1, 2))} to X",
        "move mix: set X = (X + Y) % 3",
        "move swap: let t = X, set X = Y, set Y = t",
    ]
    chosen = draw(st.lists(st.sampled_from(menu), min_size=1, max_size=3, unique=True))
    for move in chosen:
        if draw(st.integers(0, 2)) == 0:
            move += " if " + draw(st.sampled_from(["Y > 0", "X < 3", "X != Y"]))
        if mode == "cheapest":
            move += " cost " + draw(st.sampled_from(["0", "1", "2", "X + 1", "k" if "let k" in move else "1"]))
        lines.append(move)
    if draw(st.integers(0, 3)) == 0:
        lines.append("safe: " + draw(st.sampled_from(["X + Y <= 8", "X != 1 or Y != 1"])))
    if mode != "shortest":
        lines.append(f"search {mode}")
    return "\n".join(lines) + "\n"


def cursor(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["line", "ring"]))
    n = draw(st.integers(2, 5))
    k = draw(st.integers(1, n))
    lines = ['puzzle "fuzz cursor"', f"board {kind} {n}", f'pieces {draw(st.sampled_from(["0", "1"]))}..{k} "numbers"']
    lines += ["cursor at 1", "start at hand: everyone"]
    by = draw(st.sampled_from(["?t", "1", "2"]))
    along = " along clockwise" if kind == "ring" and draw(st.booleans()) else ""
    lines.append(f"move place: take ?t from hand, put ?t at cursor, advance cursor by {by}{along}")
    if draw(st.booleans()):
        lines.append("safe: cursor is empty or hand is empty")
    lines.append("goal when hand is empty")
    lines.append(f"search {draw(st.sampled_from(['all', 'all', 'count', 'reach', 'any']))}")
    if draw(st.integers(0, 2)) == 0:
        lines.append("symmetry " + draw(st.sampled_from(["reversal", "mirror", "complement"])))
    return "\n".join(lines) + "\n"


def blocks(draw: st.DrawFn) -> str:
    """Pieces of several cells on a grid (sliding blocks): each drawn where it fits."""
    rows, cols = draw(st.integers(3, 4)), draw(st.integers(3, 4))
    grid = [["_"] * cols for _ in range(rows)]
    names = []
    for symbol in "AB":
        tall = draw(st.booleans())
        r, c = draw(st.integers(0, rows - 1 - tall)), draw(st.integers(0, cols - 1 - (not tall)))
        spots = [(r, c), (r + 1, c) if tall else (r, c + 1)]
        if all(grid[y][x] == "_" for y, x in spots):
            for y, x in spots:
                grid[y][x] = symbol
            names.append(symbol)
    if draw(st.booleans()):
        free = [(y, x) for y in range(rows) for x in range(cols) if grid[y][x] == "_"]
        y, x = draw(st.sampled_from(free))
        grid[y][x] = "S"
    if not names:
        names.append("A")
        grid[0][0] = "A"
    lines = ['puzzle "fuzz blocks"', f"board grid {rows} x {cols}"]
    lines += [f"piece {n} {n.lower()} block" for n in names]
    if any("S" in row for row in grid):
        lines.append("piece S s")
    lines.append("start:")
    lines += ["    " + " ".join(row) for row in grid]
    mode = draw(st.sampled_from(["shortest", "count", "reach", "cheapest"]))
    target = draw(st.sampled_from(names))
    lines.append(
        f"goal when {target.lower()}.col == 1"
        if draw(st.booleans())
        else f"goal when {target.lower()}.row == {rows - 1}"
    )
    how = draw(
        st.sampled_from(
            [
                "step ?v along orthogonal",
                "slide ?v along left, right",
                "slide ?v along orthogonal until blocked",
                "slide ?v along orthogonal until blocked by pieces",
            ]
        )
    )
    move = f"move drive: {how}"
    if draw(st.booleans()):
        move += " if " + draw(st.sampled_from(["?v.width > 1", "?v.height > 1", "?v.row >= 1"]))
    if mode == "cheapest":
        move += " cost " + draw(st.sampled_from(["1", "?v.width", "0"]))
    lines.append(move)
    if draw(st.integers(0, 3)) == 0:
        lines.append("symmetry flip")
    if mode != "shortest":
        lines.append(f"search {mode}")
    return "\n".join(lines) + "\n"


def numbers(draw: st.DrawFn) -> str:
    """Numbered pieces on a line or a grid: their numbers in guards, costs and goals."""
    n = draw(st.integers(3, 6))
    k = draw(st.integers(2, n - 1))
    start = [str(v) for v in draw(st.permutations(list(range(1, k + 1))))] + ["_"] * (n - k)
    start = draw(st.permutations(start))
    lines = [
        'puzzle "fuzz numbers"',
        f"board {draw(st.sampled_from(['line', 'ring']))} {n}",
        f'pieces 1..{k} "numbers"',
    ]
    lines.append("start " + " ".join(start))
    goal = draw(st.sampled_from(["sorted", "when"]))
    if goal == "sorted":
        lines.append("goal " + " ".join([str(v) for v in range(1, k + 1)] + ["_"] * (n - k)))
    else:
        lines.append(
            "goal when "
            + draw(
                st.sampled_from(
                    [
                        "cell(1) == 1",
                        "sum(c.value for c in cells if not (c is empty)) > 0 and cell(1) is empty",
                        "cell(1) == cell(2) + 1 or cell(1) == 2",
                    ]
                )
            )
        )
    mode = draw(st.sampled_from(["shortest", "count", "reach", "cheapest", "any"]))
    move = "move go: " + draw(
        st.sampled_from(["?t _ -> _ ?t", "?t ?u -> ?u ?t", "?t ? _ -> _ ? ?t", "step ?t along any"])
    )
    if draw(st.booleans()):
        move += " if " + draw(st.sampled_from(["?t.value > 1", "?t.value % 2 == 1", "?t > 1"]))
    if mode == "cheapest":
        move += " cost " + draw(st.sampled_from(["?t.value", "?t.value - 1", "3 - ?t.value % 3"]))
    lines.append(move)
    if draw(st.integers(0, 2)) == 0:
        lines.append("symmetry " + draw(st.sampled_from(["mirror", "complement", "mirror + complement", "reversal"])))
    if mode != "shortest":
        lines.append(f"search {mode}")
    if mode in ("shortest", "cheapest") and goal == "sorted" and draw(st.booleans()):
        lines.append("heuristic " + draw(st.sampled_from(["misplaced()", "inversions()", "displacement()"])))
    return "\n".join(lines) + "\n"
