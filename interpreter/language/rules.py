"""Elaboration of safety rules and directives: `safe`, `symmetry`, `search`, `heuristic`, `show`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import NOWHERE, Pos, SpecError, source_lines, suggest
from ..model import expr as m
from ..model.board import BOARD_SYMMETRIES, Board
from ..model.puzzle import (
    SEARCH_METHODS,
    SEARCH_MODES,
    SHOW_BANKS,
    SHOW_BOARD,
    SHOW_CIRCLE,
    SHOW_LADDER,
    Carry,
    Move,
    Part,
    PieceType,
    Place,
    SafetyRule,
    Symmetry,
)
from . import syntax as s
from .predicates import Names, Scope, condition, number

if TYPE_CHECKING:
    from .context import Elaboration

SCOPES = {"board": "state", "places": "places", "loads": "loads", "everywhere": "everywhere"}
SHOW_STYLES = (SHOW_BOARD, SHOW_LADDER, SHOW_CIRCLE, SHOW_BANKS)
# the words a part of a `symmetry` starts with: a board's own, then those that name what they map
SYMMETRY_WORDS = (*BOARD_SYMMETRIES, "swap", "complement", "cycle")


def source_text(el: Elaboration, pos: Pos) -> str:
    lines = source_lines(el.spec.source)
    if 0 < pos.line <= len(lines):
        return lines[pos.line - 1][pos.column - 1 :].strip()
    return ""


def safety(el: Elaboration, names: Names, moves: list[Move]) -> list[SafetyRule]:
    rules: list[SafetyRule] = []
    carries = any(isinstance(mv.form, Carry) for mv in moves)
    for stmt in el.of(s.Safe):
        scope = SCOPES[stmt.scope]
        if scope != "state" and not names.places:
            el.errors.error(
                stmt.pos, f"'safe {_words(stmt.scope)}' checks places, and this puzzle has none", "safe: ..."
            )
            continue
        if scope == "loads" and not carries:
            el.errors.error(
                stmt.pos, "'safe in loads' checks what a carry move carries; this puzzle has none", "safe: ..."
            )
            continue
        for expr in stmt.conditions:
            where = Scope(names, "a safety rule", here=scope != "state", load=False)
            try:
                typed = condition(expr, where)
            except SpecError as exc:
                el.errors.diagnostics.extend(exc.diagnostics)
                continue
            if isinstance(typed, m.Const):
                if typed.value is False:
                    el.errors.error(expr.pos, "this safety rule never holds: no state would be allowed")
                continue  # decided by the parameters: nothing to check during the search
            rules.append(SafetyRule(expr.pos, scope, typed, where.size, source_text(el, expr.pos)))
    return rules


def _words(scope: str) -> str:
    return {"places": "in places", "loads": "in loads", "everywhere": "everywhere"}.get(scope, "")


FILL_MODES = ("all", "any")


def search_mode(el: Elaboration, filling: bool = False) -> tuple[str, Pos]:
    """What the spec searches for: `search MODE` (default: the shortest solution; for a
    filling, every solution)."""
    found = [x for x in el.of(s.Directive) if x.kind == "search"]
    for extra in found[1:]:
        el.errors.error(extra.pos, f"search is given twice (first on line {found[0].pos.line})", "only one")
    if not found:
        return ("all" if filling else "shortest"), Pos(0, 0)
    word = found[0].words[0]
    if word.name not in SEARCH_MODES:
        unknown = f"unknown search '{word.name}'{suggest(word.name, SEARCH_MODES)}"
        el.errors.error(word.pos, unknown, "one of: " + ", ".join(SEARCH_MODES))
        return "shortest", word.pos
    if filling and word.name not in FILL_MODES:
        el.errors.error(
            word.pos,
            f"a filling is searched for every solution (`search all`, the default) or for one "
            f"(`search any`), not '{word.name}'",
            "search all or search any",
        )
        return "all", word.pos
    return word.name, word.pos


def search_method(el: Elaboration, mode: str) -> tuple[str, Pos]:
    """How the shortest solution is searched, where the spec says so (`search shortest by
    idastar`; default: `auto`, the plan's choice), and where it says it. A* and IDA* with no
    `heuristic` line run with the heuristic derived from the spec: whether one can be is
    known only once the puzzle is compiled, so that is checked when the question is asked
    (`plan.heuristic`), at this position."""
    found = [x for x in el.of(s.Directive) if x.kind == "search"]
    if not found or len(found[0].words) < 2:
        return "auto", NOWHERE
    word = found[0].words[1]
    if mode != "shortest":
        el.errors.error(
            word.pos,
            f"`by {word.name}` picks how the shortest solution is searched, and this spec searches '{mode}'",
            "search shortest by METHOD",
        )
        return "auto", NOWHERE
    if word.name not in SEARCH_METHODS:
        unknown = f"unknown search method '{word.name}'{suggest(word.name, SEARCH_METHODS)}"
        el.errors.error(word.pos, unknown, "one of: " + ", ".join(SEARCH_METHODS))
        return "auto", NOWHERE
    return str(word.name), word.pos


def show_style(el: Elaboration, board: Board | None, places: list[Place]) -> str:
    found = [x for x in el.of(s.Directive) if x.kind == "show"]
    for extra in found[1:]:
        el.errors.error(extra.pos, f"show is given twice (first on line {found[0].pos.line})", "only one")
    if not found:
        return SHOW_BANKS if board is None and places else SHOW_BOARD
    word = found[0].words[0]
    style: str = word.name
    if style not in SHOW_STYLES:
        el.errors.error(
            word.pos, f"unknown drawing '{style}'{suggest(style, SHOW_STYLES)}", "one of: " + ", ".join(SHOW_STYLES)
        )
    elif style == SHOW_LADDER and (board is None or board.kind != "line"):
        el.errors.error(word.pos, "a ladder is drawn for a line of cells", "show board")
    elif style == SHOW_CIRCLE and (board is None or board.kind != "ring"):
        el.errors.error(word.pos, "a circle is drawn for a ring of cells", "show board")
    elif style == SHOW_BANKS and not places:
        el.errors.error(word.pos, "banks are drawn for a puzzle with places", "show board")
    elif style == SHOW_BOARD and board is None:
        el.errors.missing("board", word.pos, "this puzzle has no board of cells to draw", "show banks")
    return style


def heuristic(el: Elaboration, names: Names) -> tuple[m.Expr | None, int]:
    found = el.of(s.Heuristic)
    for extra in found[1:]:
        el.errors.error(extra.pos, f"heuristic is given twice (first on line {found[0].pos.line})", "only one")
    if not found:
        return None, 0
    scope = Scope(names, "the heuristic")
    try:
        return number(found[0].value, scope), scope.size
    except SpecError as exc:
        el.errors.diagnostics.extend(exc.diagnostics)
        return None, 0


def symmetries(
    el: Elaboration, board: Board | None, types: list[PieceType], parts: list[Part], places: list[Place]
) -> list[Symmetry]:
    found: list[Symmetry] = []
    by_symbol = {p.symbol: p for p in types}
    place_names = [p.name for p in places]
    counter_names = {c.name for c in el.of(s.CounterDecl)} | {t.name for f in el.of(s.Fill) for t in f.targets}
    for stmt in el.of(s.SymmetryDecl):
        for sym in stmt.symmetries:
            cells = tuple(range(board.size if board is not None else 0))
            codes = tuple(range(len(parts)))
            place_map = tuple(range(len(places)))
            names = []
            ok = True
            for part in sym.parts:
                word, args = part[0], part[1:]
                names.append(" ".join(w.name for w in part))
                if word.name == "swap":
                    if len(args) != 2:
                        el.errors.error(word.pos, "swap names two pieces (or two places), e.g. swap B W", "swap X Y")
                        ok = False
                        continue
                    if args[0].name == args[1].name:
                        el.errors.error(
                            args[1].pos,
                            f"swap exchanges two different pieces (or places), not '{args[0].name}' with itself",
                            "swap X Y with X and Y different",
                        )
                        ok = False
                        continue
                    if all(a.name in place_names for a in args):
                        i, j = (place_names.index(a.name) for a in args)
                        mapping = list(place_map)
                        mapping[i], mapping[j] = place_map[j], place_map[i]
                        place_map = tuple(mapping)
                        continue
                    pair = []
                    for arg in args:
                        if arg.name in counter_names:
                            el.errors.error(
                                arg.pos,
                                f"'{arg.name}' is a counter, and swap exchanges two pieces (or two places)",
                                "swap X Y with X and Y declared pieces",
                            )
                        elif arg.name not in by_symbol:
                            known = f" ({', '.join(sorted(by_symbol))})" if by_symbol else ": this puzzle declares none"
                            unknown = f"unknown piece '{arg.name}'{suggest(arg.name, by_symbol)}"
                            el.errors.error(arg.pos, unknown, f"a declared piece{known}")
                        else:
                            pair.append(by_symbol[arg.name].code)
                    if len(pair) != 2:
                        ok = False
                        continue
                    if any(types[c - 1].shape is not None for c in pair):
                        el.errors.error(word.pos, "blocks cannot be swapped by a symmetry", "pieces of one cell")
                        ok = False
                        continue
                    mapping = list(codes)
                    a, b = pair
                    mapping[a], mapping[b] = codes[b], codes[a]
                    codes = tuple(mapping)
                    continue
                if word.name == "complement":
                    mapped = _complement(el, word, types, codes)
                    if mapped is None:
                        ok = False
                    else:
                        codes = mapped
                    continue
                if word.name == "cycle":
                    cycled = _cycle(el, word, args, board)
                    if cycled is None:
                        ok = False
                    else:
                        cells = tuple(cycled[c] for c in cells)
                    continue
                if args:
                    el.errors.error(args[0].pos, f"'{word.name}' takes no pieces", "',' or the end of the line")
                if board is None:
                    el.errors.error(word.pos, f"'{word.name}' is a symmetry of a board, and this puzzle has none")
                    ok = False
                    continue
                perm = board.symmetry(word.name)
                if isinstance(perm, str):
                    el.errors.error(word.pos, perm, "a symmetry of the board")
                    ok = False
                    continue
                cells = tuple(perm[c] for c in cells)
            if ok:
                found.append(Symmetry(" + ".join(names), sym.pos, cells, codes, place_map))
    return found


def _cycle(el: Elaboration, word: s.Name, args: tuple[s.Name, ...], board: Board | None) -> tuple[int, ...] | None:
    """`cycle a b c`: a permutation of the board's cells, a to b, b to c, c to a (the others
    stay); with `+`, several cycles at once (a turn of a hexagon: its rings' cycles)."""
    if board is None:
        el.errors.error(word.pos, "a cycle moves cells, and this puzzle has no board")
        return None
    if len(args) < 2:
        el.errors.error(word.pos, "a cycle names two cells or more, each going to the next", "cycle a b c")
        return None
    found: list[int] = []
    for arg in args:
        cell = board.by_name(arg.name)
        if cell is None:
            expected = f"a cell of the board, {board.names_range()}"
            el.errors.error(arg.pos, f"the board has no cell '{arg.name}'", expected)
            return None
        if cell in found:
            el.errors.error(arg.pos, f"the cycle names '{arg.name}' twice", "each cell once in a cycle")
            return None
        found.append(cell)
    perm = list(range(board.size))
    for here, there in zip(found, found[1:] + found[:1], strict=True):
        perm[here] = there
    return tuple(perm)


def _complement(
    el: Elaboration, word: s.Name, types: list[PieceType], codes: tuple[int, ...]
) -> tuple[int, ...] | None:
    numbered = {p.value: p.code for p in types if p.value is not None}
    if not numbered:
        el.errors.error(word.pos, "complement maps numbered pieces (pieces 1..n), and this puzzle has none")
        return None
    low, high = min(numbered), max(numbered)
    mapping = list(codes)
    for value, code in numbered.items():
        other = numbered.get(low + high - value)
        if other is None:
            el.errors.error(
                word.pos, f"complement needs the number {low + high - value} (for {value}), and no piece has it"
            )
            return None
        mapping[code] = codes[other]
    return tuple(mapping)
