"""Syntax model + parameter values -> the concrete puzzle model, with semantic checks.

Every check adds to one collector, so a spec with several mistakes gets them all reported
in one run, each at its own line and column.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .. import topology
from ..errors import NOWHERE, Collector, Pos, SpecError
from ..model import (
    EMPTY,
    SHOW_BOARD,
    SHOW_LADDER,
    AnyCell,
    Bind,
    BoardShape,
    CellPattern,
    Lit,
    PieceType,
    PlacementPuzzle,
    PlacesPuzzle,
    Puzzle,
    RewriteRule,
    Symmetry,
    Window,
)
from . import syntax as s
from .expressions import Value, evaluate, show, type_name
from .parser import grammar_parser

# Statements whose constructs are designed (docs/language.md) but not yet executed.
NOT_YET: dict[type, str] = {}
# Statements that belong to boards of places, and what a cell board says instead.
PLACES_ONLY = {
    s.Route: "routes",
    s.Carrier: "carriers",
    s.GroupDecl: "groups of pieces",
    s.PlaceLayout: "start/goal at a place",
}
SEARCH_MODES = ("shortest",)
BOARD_EXPECTED = "a board: board line N, board grid ROWS x COLS, board ring N or board places A, B, ..."
MAX_CELLS = 4096  # a board (or layout) larger than this is a mistake, or beyond any search
MAX_PIECES = 255  # a cell holds one byte
SHOW_STYLES = (SHOW_BOARD, SHOW_LADDER)


def keywords() -> frozenset[str]:
    """Words of the grammar, which may not be used as names."""
    words = set()
    for term in grammar_parser().terminals:
        pattern = term.pattern
        if pattern.type == "str" and pattern.value.isalpha():
            words.add(pattern.value)
    return frozenset(words)


@dataclass
class _Scope:
    """What elaboration has learned so far about the spec."""

    env: dict[str, Value] = field(default_factory=dict)
    param_pos: dict[str, Pos] = field(default_factory=dict)
    statements: list[s.Statement] = field(default_factory=list)


def parse_override(name: str, text: str, default: Value) -> Value:
    """A command-line value, read as the same kind of value as the parameter's default."""
    if isinstance(default, bool):
        if text.lower() in ("true", "yes", "1"):
            return True
        if text.lower() in ("false", "no", "0"):
            return False
        raise ValueError(f"parameter {name} takes true or false, got '{text}'")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"parameter {name} takes a whole number, got '{text}'") from None
    return text


def elaborate(spec: s.Spec, overrides: dict[str, str] | None = None) -> Puzzle | PlacesPuzzle | PlacementPuzzle:
    """Apply parameters to a parsed spec and check it; raise SpecError listing every problem."""
    try:
        return _Elaborator(spec, overrides or {}).run()
    except SpecError as exc:
        raise exc.with_source(spec.source, spec.filename) from None


class _Elaborator:
    def __init__(self, spec: s.Spec, overrides: dict[str, str]):
        self.spec = spec
        self.overrides = overrides
        self.errors = Collector()
        self.scope = _Scope()
        self.reserved = keywords()

    # ---- driver
    def run(self) -> Puzzle | PlacesPuzzle | PlacementPuzzle:
        self._walk(self.spec.statements)
        for name in self.overrides:
            if name not in self.scope.env:
                known = ", ".join(self.scope.param_pos) or "none: this spec has no parameters"
                self.errors.error(NOWHERE, f"unknown parameter '{name}'", f"one of: {known}")
        self.errors.raise_if_any()
        stmts = self.scope.statements
        self._check_requirements(stmts)
        self.errors.raise_if_any()
        for stmt in stmts:
            for cls, what in NOT_YET.items():
                if isinstance(stmt, cls):
                    self.errors.error(stmt.pos, f"{what} are not supported by this version of puzint yet")
        board_stmt = self._single(stmts, s.Board, "board", expected=BOARD_EXPECTED)
        if isinstance(board_stmt, s.Board) and board_stmt.shape == "places":
            from .places import PlacesBuilder

            return PlacesBuilder(self, stmts, board_stmt).build()
        if any(isinstance(x, s.Cursor) or (isinstance(x, s.Move) and isinstance(x.rule, s.Actions)) for x in stmts):
            from .placement import PlacementBuilder

            return PlacementBuilder(self, stmts).build()
        for stmt in stmts:
            for cls, what in PLACES_ONLY.items():  # type: ignore[assignment]
                if isinstance(stmt, cls):
                    self.errors.error(stmt.pos, f"{what} belong to a board of places", "board places A, B, ...")
            if isinstance(stmt, s.Safe):
                self.errors.error(
                    stmt.pos, "safety rules on cell boards go with placement moves (a cursor); not with rewrites yet"
                )
            if isinstance(stmt, s.GoalWhen):
                self.errors.error(
                    stmt.pos, "a goal condition goes with placement moves (a cursor); not with rewrites yet"
                )
            if isinstance(stmt, s.Move) and isinstance(stmt.rule, s.Carry):
                self.errors.error(stmt.pos, "carry moves need a board of places", "board places A, B, ...")
        return self._cell_puzzle(stmts)

    def _cell_puzzle(self, stmts: list[s.Statement]) -> Puzzle:
        title = self._single(stmts, s.PuzzleTitle, "puzzle title", required=False)
        about = self._single(stmts, s.About, "about text", required=False)
        board = self._board(stmts)
        pieces = self._pieces(stmts)
        self._directives(stmts)
        if board is None or pieces is None:
            self.errors.raise_if_any()
            raise AssertionError("unreachable: a missing board is always reported")
        by_symbol = {p.symbol: p for p in pieces}
        directions = self._directions(stmts, board)
        start = self._layout(stmts, "start", board, by_symbol)
        goal = self._layout(stmts, "goal", board, by_symbol)
        rules = self._rules(stmts, board, by_symbol, directions)
        symmetries = self._symmetries(stmts, board, pieces, by_symbol)
        self.errors.raise_if_any()
        assert start is not None and goal is not None
        start_cells = tuple(c.code for c in start[0] if isinstance(c, Lit))
        puzzle = Puzzle(
            title=title.title if isinstance(title, s.PuzzleTitle) else self.spec.filename,
            about=about.text if isinstance(about, s.About) else "",
            params={k: self.scope.env[k] for k in self.scope.param_pos},
            board=board,
            pieces=pieces,
            start=start_cells,
            goal=goal[0],
            rules=rules,
            goal_pos=goal[1],
            symmetries=symmetries,
            heuristic=self._heuristic(stmts),
            show=self._show(stmts, board),
            param_env=dict(self.scope.env),
        )
        self._check_consistency(puzzle)
        self._check_heuristic(puzzle)
        self.errors.raise_if_any()
        return puzzle

    def _walk(self, statements: tuple[s.Statement, ...]) -> None:
        for stmt in statements:
            if isinstance(stmt, s.Param):
                self._param(stmt)
            elif isinstance(stmt, s.If):
                try:
                    cond = evaluate(stmt.condition, self.scope.env)
                except SpecError as exc:
                    self.errors.diagnostics.extend(exc.diagnostics)
                    continue
                if not isinstance(cond, bool):
                    self.errors.error(stmt.condition.pos, f"an if needs a condition, got {type_name(cond)}")
                    continue
                self._walk(stmt.then if cond else stmt.otherwise)
            else:
                self.scope.statements.append(stmt)

    def _param(self, stmt: s.Param) -> None:
        scope = self.scope
        if stmt.name in scope.param_pos:
            first = scope.param_pos[stmt.name]
            self.errors.error(stmt.pos, f"parameter '{stmt.name}' is declared twice (first on line {first.line})")
            return
        self._check_name(stmt.pos, stmt.name, "a parameter")
        try:
            default = evaluate(stmt.default, scope.env)
        except SpecError as exc:
            self.errors.diagnostics.extend(exc.diagnostics)
            return
        value = default
        if stmt.name in self.overrides:
            try:
                value = parse_override(stmt.name, self.overrides[stmt.name], default)
            except ValueError as exc:
                self.errors.error(
                    stmt.pos, f"{exc} (from -p {stmt.name}=...)", f"{type_name(default)} like {show(default)}"
                )
        scope.env[stmt.name] = value
        scope.param_pos[stmt.name] = stmt.pos

    def _check_name(self, pos: Pos, name: str, what: str) -> None:
        if name in self.reserved:
            self.errors.error(pos, f"'{name}' is a word of the language and cannot name {what}", "another name")

    def _eval(self, expr: s.Expr) -> Value | None:
        try:
            return evaluate(expr, self.scope.env)
        except SpecError as exc:
            self.errors.diagnostics.extend(exc.diagnostics)
            return None

    def _eval_int(self, expr: s.Expr, what: str, minimum: int = 0) -> int | None:
        value = self._eval(expr)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.errors.error(expr.pos, f"{what} must be a number, got {type_name(value)}", "a number")
            return None
        if value < minimum:
            self.errors.error(expr.pos, f"{what} must be at least {minimum}, got {value}{self._with_params()}")
            return None
        return value

    def _with_params(self) -> str:
        if not self.scope.param_pos:
            return ""
        return " (with " + ", ".join(f"{k}={show(self.scope.env[k])}" for k in self.scope.param_pos) + ")"

    def _check_requirements(self, stmts: list[s.Statement]) -> None:
        for stmt in stmts:
            if isinstance(stmt, s.Require):
                ok = self._eval(stmt.condition)
                if ok is None:
                    continue
                if not isinstance(ok, bool):
                    self.errors.error(stmt.condition.pos, f"require needs a condition, got {type_name(ok)}")
                elif not ok:
                    message = stmt.message or "this requirement on the parameters does not hold"
                    self.errors.error(
                        stmt.condition.pos, f"{message}{self._with_params()}", "parameters that satisfy it"
                    )

    def _single(
        self, stmts: list[s.Statement], cls: type, what: str, required: bool = True, expected: str | None = None
    ) -> s.Statement | None:
        found = [x for x in stmts if isinstance(x, cls)]
        for extra in found[1:]:
            self.errors.error(extra.pos, f"{what} is given twice (first on line {found[0].pos.line})", "only one")
        if not found and required:
            self.errors.error(Pos(1, 1), f"the spec has no {what}", expected)
        return found[0] if found else None

    # ---- board, pieces, directions
    def _board(self, stmts: list[s.Statement]) -> BoardShape | None:
        stmt = self._single(stmts, s.Board, "board", expected=BOARD_EXPECTED)
        if not isinstance(stmt, s.Board):
            return None
        sizes = [self._eval_int(e, "a board size", 1) for e in stmt.sizes]
        if any(x is None for x in sizes):
            return None
        board = (
            BoardShape("grid", sizes[0] or 1, sizes[1] or 1)
            if stmt.shape == "grid"
            else BoardShape(stmt.shape, 1, sizes[0] or 1)
        )
        if board.size > MAX_CELLS:
            self.errors.error(
                stmt.pos,
                f"the board would have {board.size:,} cells{self._with_params()}; puzint takes at most {MAX_CELLS:,}",
                f"at most {MAX_CELLS:,} cells",
            )
            return None
        return board

    def _pieces(self, stmts: list[s.Statement]) -> tuple[PieceType, ...] | None:
        pieces: list[PieceType] = []
        first_pos: dict[str, Pos] = {}

        def add(pos: Pos, symbol: str, kind: str, description: str, glyph: str, value: int | None = None) -> None:
            if symbol in first_pos:
                self.errors.error(pos, f"piece '{symbol}' is declared twice (first on line {first_pos[symbol].line})")
                return
            first_pos[symbol] = pos
            pieces.append(PieceType(len(pieces) + 1, symbol, kind, description, glyph, value))

        for stmt in stmts:
            if isinstance(stmt, s.PieceDecl):
                if len(stmt.symbol) != 1:
                    self.errors.error(stmt.pos, f"a piece symbol is one letter, got '{stmt.symbol}'", "one letter")
                    continue
                if stmt.per_group:
                    self.errors.error(stmt.pos, "pieces per group are not supported by this version of puzint yet")
                kind = stmt.kind or stmt.symbol
                self._check_name(stmt.pos, kind, "a kind of piece")
                glyph = stmt.drawn or stmt.symbol
                if len(glyph) != 1:
                    self.errors.error(stmt.pos, f"a piece is drawn with one character, got '{glyph}'", "one character")
                add(stmt.pos, stmt.symbol, kind, stmt.description or kind, glyph[:1])
            elif isinstance(stmt, s.PiecesDecl):
                value = self._eval(stmt.source)
                if value is None:
                    continue
                if isinstance(value, range):
                    for number in value:
                        symbol = str(number)
                        add(stmt.pos, symbol, "number", stmt.description or "number", symbol, number)
                    continue
                if not isinstance(value, str):
                    self.errors.error(
                        stmt.source.pos,
                        f"pieces takes text (one piece per letter) or a range of numbers, got {type_name(value)}",
                        "letters(n) or 1..n",
                    )
                    continue
                for ch in value:
                    if not ch.isalnum():
                        self.errors.error(stmt.source.pos, f"'{ch}' cannot be a piece symbol", "letters or digits")
                        continue
                    add(stmt.pos, ch, ch, stmt.description or "piece", ch)
        if len(pieces) > MAX_PIECES:
            self.errors.error(first_pos[pieces[MAX_PIECES].symbol], f"puzint takes at most {MAX_PIECES} kinds of piece")
        if not pieces:
            self.errors.error(Pos(1, 1), "the spec declares no pieces", "piece SYMBOL ... or pieces TEXT")
            return None
        return tuple(pieces)

    def _directions(self, stmts: list[s.Statement], board: BoardShape) -> dict[str, tuple[topology.Vector, ...]]:
        table = topology.directions(board)
        for stmt in stmts:
            if not isinstance(stmt, s.Direction):
                continue
            self._check_name(stmt.pos, stmt.name, "a direction")
            vectors: list[topology.Vector] = []
            for vec in stmt.vectors:
                a = self._eval_int(vec.a, "a step", -1000)
                b = self._eval_int(vec.b, "a step", -1000)
                if a is None or b is None:
                    continue
                if (a, b) == (0, 0):
                    self.errors.error(vec.pos, "a direction cannot be the zero step", "a step that moves")
                    continue
                for v in topology.leap(a, b) if vec.leap else ((a, b),):
                    if v not in vectors:
                        vectors.append(v)
            if board.rows == 1 and any(v[0] != 0 for v in vectors):
                self.errors.error(
                    stmt.pos, f"{topology.describe(board)} has one row: a step's row part must be 0", "(0, k)"
                )
            table[stmt.name] = tuple(vectors)
        return table

    def _heuristic(self, stmts: list[s.Statement]) -> s.Expr | None:
        found = self._single(stmts, s.Heuristic, "heuristic", required=False)
        return found.value if isinstance(found, s.Heuristic) else None

    def _show(self, stmts: list[s.Statement], board: BoardShape) -> str:
        styles = [w for x in stmts if isinstance(x, s.Directive) and x.kind == "show" for w in x.words]
        if not styles:
            return "board"
        if styles[-1].name == SHOW_LADDER and board.kind != "line":
            self.errors.error(styles[-1].pos, "a ladder is drawn for a line board", "show board")
        return styles[-1].name

    def _check_heuristic(self, puzzle: Puzzle) -> None:
        if puzzle.heuristic is None:
            return
        from ..compiler.heuristics import compile_heuristic

        try:
            compile_heuristic(puzzle)
        except SpecError as exc:
            self.errors.diagnostics.extend(exc.diagnostics)

    def _directives(self, stmts: list[s.Statement]) -> None:
        for stmt in stmts:
            if not isinstance(stmt, s.Directive):
                continue
            for word in stmt.words:
                allowed = {"search": SEARCH_MODES, "show": SHOW_STYLES}.get(stmt.kind)
                if allowed is not None and word.name not in allowed:
                    self.errors.error(
                        word.pos,
                        f"'{stmt.kind} {word.name}' is not supported by this version of puzint",
                        "one of: " + ", ".join(allowed),
                    )

    def _symmetries(
        self,
        stmts: list[s.Statement],
        board: BoardShape,
        pieces: tuple[PieceType, ...],
        by_symbol: dict[str, PieceType],
    ) -> tuple[Symmetry, ...]:
        found: list[Symmetry] = []
        for stmt in stmts:
            if not isinstance(stmt, s.SymmetryDecl):
                continue
            for sym in stmt.symmetries:
                cells = tuple(range(board.size))
                codes = tuple(range(len(pieces) + 1))
                names = []
                for part in sym.parts:
                    word, args = part[0], part[1:]
                    names.append(" ".join(w.name for w in part))
                    if word.name == "swap":
                        if len(args) != 2:
                            self.errors.error(word.pos, "swap names two pieces, e.g. swap B W", "swap PIECE PIECE")
                            continue
                        pair = []
                        for arg in args:
                            if arg.name not in by_symbol:
                                known = ", ".join(sorted(by_symbol))
                                self.errors.error(arg.pos, f"unknown piece '{arg.name}'", f"a declared piece ({known})")
                            else:
                                pair.append(by_symbol[arg.name].code)
                        if len(pair) == 2:
                            mapping = list(codes)
                            a, b = pair
                            mapping[a], mapping[b] = codes[b], codes[a]
                            codes = tuple(mapping)
                        continue
                    if word.name == "reversal":
                        self.errors.error(
                            word.pos,
                            "the reversal symmetry of all-solutions search is not supported by this version yet",
                        )
                        continue
                    if args:
                        self.errors.error(args[0].pos, f"'{word.name}' takes no pieces", "',' or the end of the line")
                    perm = topology.symmetry_permutation(board, word.name)
                    if isinstance(perm, str):
                        self.errors.error(word.pos, perm, "a symmetry of the board")
                        continue
                    cells = tuple(perm[c] for c in cells)
                found.append(Symmetry(" + ".join(names), sym.pos, cells, codes))
        return tuple(found)

    # ---- layouts
    def _expand(
        self, items: tuple[s.LayoutItem, ...], by_symbol: dict[str, PieceType], allow: str
    ) -> list[CellPattern]:
        """Layout items -> cell patterns. `allow` says what may appear: "start" (pieces and
        empties only), "goal" (also ?) or "rule" (also ?x variables)."""
        out: list[CellPattern] = []
        for item in items:
            if isinstance(item, s.Cells):
                param = self.scope.env.get(item.text)
                if item.text in self.scope.param_pos:
                    if not isinstance(param, str):
                        self.errors.error(
                            item.pos, f"'{item.text}' is a {type_name(param)} parameter, not a row of cells", "cells"
                        )
                        continue
                    out.extend(self._symbols(param, item.pos, by_symbol, from_param=item.text))
                else:
                    out.extend(self._symbols(item.text, item.pos, by_symbol))
            elif isinstance(item, s.Wild):
                if allow == "start":
                    self.errors.error(
                        item.pos, "the start must say what is in every cell; ? is for goals and moves", "a piece or _"
                    )
                out.append(AnyCell())
            elif isinstance(item, s.Var):
                if allow != "rule":
                    self.errors.error(item.pos, f"variable ?{item.name} can only be used in a move", "a piece or _")
                out.append(Bind(item.name))
            elif isinstance(item, s.Group):
                out.extend(self._expand(item.items, by_symbol, allow))
            else:
                count = self._eval_int(item.count, "a repeat count", 0)
                part = self._expand((item.item,), by_symbol, allow)
                if count is not None and len(part) * count > MAX_CELLS:
                    self.errors.error(
                        item.pos,
                        f"this repeats to {len(part) * count:,} cells{self._with_params()}",
                        f"at most {MAX_CELLS:,} cells",
                    )
                    continue
                out.extend(part * (count or 0))
        return out

    def _symbols(
        self, text: str, pos: Pos, by_symbol: dict[str, PieceType], from_param: str | None = None
    ) -> list[CellPattern]:
        out: list[CellPattern] = []
        for i, ch in enumerate(text):
            if ch in "_.":
                out.append(Lit(EMPTY))
            elif ch == "?":
                out.append(AnyCell())
            elif ch in by_symbol:
                out.append(Lit(by_symbol[ch].code))
            else:
                where = pos if from_param else Pos(pos.line, pos.column + i)
                origin = f" in parameter {from_param}='{text}'" if from_param else ""
                known = ", ".join(sorted(by_symbol))
                self.errors.error(where, f"unknown piece '{ch}'{origin}", f"a declared piece ({known}) or _ for empty")
                out.append(Lit(EMPTY))  # keeps the count right, so the size check stays quiet
        return out

    def _layout(
        self, stmts: list[s.Statement], which: str, board: BoardShape, by_symbol: dict[str, PieceType]
    ) -> tuple[tuple[CellPattern, ...], Pos] | None:
        found = [x for x in stmts if isinstance(x, (s.LayoutDecl, s.ComputedLayout)) and x.which == which]
        for extra in found[1:]:
            self.errors.error(extra.pos, f"the {which} is given twice (first on line {found[0].pos.line})", "only one")
        if not found:
            if not any(isinstance(x, (s.PlaceLayout, s.GoalWhen)) for x in stmts):
                self.errors.error(Pos(1, 1), f"the spec has no {which}", f"{which} LAYOUT")
            return None
        decl = found[0]
        cells: list[CellPattern] = []
        if isinstance(decl, s.ComputedLayout):
            value = self._eval(decl.value)
            if value is None:
                return None
            if not isinstance(value, str):
                self.errors.error(decl.value.pos, f"{which} = ... needs text, got {type_name(value)}", "text")
                return None
            cells = self._symbols(value, decl.value.pos, by_symbol, from_param=which)
        else:
            rows = [self._expand(row.items, by_symbol, which) for row in decl.rows]
            if len(rows) > 1:
                for row, got in zip(decl.rows, rows, strict=True):
                    if len(got) != board.cols:
                        self.errors.error(
                            row.pos,
                            f"this row has {len(got)} cells but the board has {board.cols} columns",
                            f"{board.cols} cells",
                        )
                if len(rows) != board.rows:
                    self.errors.error(
                        decl.pos,
                        f"the {which} picture has {len(rows)} rows but the board has {board.rows}",
                        f"{board.rows} rows",
                    )
            cells = [c for row in rows for c in row]
        if len(cells) != board.size and not (len(decl.rows if isinstance(decl, s.LayoutDecl) else ()) > 1):
            self.errors.error(
                decl.pos,
                f"the {which} has {len(cells)} cells but the board is {topology.describe(board)}{self._with_params()}",
                f"{board.size} cells",
            )
            return None
        return tuple(cells), decl.pos

    # ---- rules
    def _rules(
        self,
        stmts: list[s.Statement],
        board: BoardShape,
        by_symbol: dict[str, PieceType],
        directions: dict[str, tuple[topology.Vector, ...]],
    ) -> tuple[RewriteRule, ...]:
        rules: list[RewriteRule] = []
        moves = [x for x in stmts if isinstance(x, s.Move)]
        if not moves:
            self.errors.error(Pos(1, 1), "the spec has no moves", "move NAME: PATTERN -> PATTERN")
        for move in moves:
            self._check_name(move.pos, move.name, "a move")
            if not isinstance(move.rule, s.Rewrite):
                continue
            rule = self._rewrite(move, move.rule, board, by_symbol, directions)
            if rule is not None:
                rules.append(rule)
        return tuple(rules)

    def _rewrite(
        self,
        move: s.Move,
        rule: s.Rewrite,
        board: BoardShape,
        by_symbol: dict[str, PieceType],
        directions: dict[str, tuple[topology.Vector, ...]],
    ) -> RewriteRule | None:
        ok = True
        lhs = [tuple(self._expand(w.items, by_symbol, "rule")) for w in rule.lhs]
        rhs = [tuple(self._expand(w.items, by_symbol, "rule")) for w in rule.rhs]
        if len(lhs) != len(rhs):
            self.errors.error(
                rule.rhs[0].pos,
                f"move {move.name}: the left side has {len(lhs)} part(s) separated by '...', the right side {len(rhs)}",
                f"{len(lhs)} part(s) on the right",
            )
            return None
        for i, (left, right) in enumerate(zip(lhs, rhs, strict=True)):
            if len(left) != len(right):
                self.errors.error(
                    rule.rhs[i].pos,
                    f"move {move.name}: this part has {len(right)} cells "
                    f"but the matching part on the left has {len(left)}",
                    f"{len(left)} cells",
                )
                ok = False
        bound: dict[str, int] = {}
        for window in lhs:
            for c in window:
                if isinstance(c, Bind):
                    bound[c.name] = bound.get(c.name, 0) + 1
        for w_syntax, window in zip(rule.rhs, rhs, strict=True):
            for c in window:
                if isinstance(c, Bind) and c.name not in bound:
                    self.errors.error(
                        w_syntax.pos,
                        f"move {move.name}: ?{c.name} is used on the right but not matched on the left",
                        "variables that appear on the left side",
                    )
                    ok = False
        if rule.along is None:
            vectors = topology.default_directions(board)
        else:
            found: list[topology.Vector] = []
            for word in rule.along:
                if word.name not in directions:
                    self.errors.error(
                        word.pos,
                        f"{topology.describe(board)} has no direction '{word.name}'",
                        "one of: " + ", ".join(sorted(directions)),
                    )
                    ok = False
                    continue
                found.extend(v for v in directions[word.name] if v not in found)
            vectors = tuple(found)
        longest = max((len(w) for w in lhs), default=0)
        if ok and longest > max(board.rows, board.cols) and not board.wraps and longest > 1:
            fits = any(topology.step(board, c, v, longest - 1) is not None for c in range(board.size) for v in vectors)
            if not fits:
                self.errors.error(
                    rule.lhs[0].pos,
                    f"move {move.name} can never be made: it needs {longest} cells in a row and the board is "
                    f"{topology.describe(board)}{self._with_params()}",
                    "a pattern that fits on the board",
                )
                ok = False
        if not ok:
            return None
        return RewriteRule(move.name, move.pos, tuple(lhs), tuple(rhs), vectors)

    # ---- whole-puzzle checks
    def _check_consistency(self, puzzle: Puzzle) -> None:
        start_count = Counter(c for c in puzzle.start if c != EMPTY)
        for rule in puzzle.rules:
            used = {c.code for w in rule.lhs for c in w if isinstance(c, Lit) and c.code != EMPTY}
            missing = [puzzle.symbol(code) for code in used if code not in start_count and not _creates(puzzle, code)]
            if missing:
                self.errors.error(
                    rule.pos,
                    f"move {rule.name} can never be made: it needs {', '.join(sorted(missing))}, "
                    "which is not on the board at the start and no move puts it there",
                    "a move about pieces of the puzzle",
                )
        if all(_conserves(rule) for rule in puzzle.rules):
            goal_count = Counter(c.code for c in puzzle.goal if isinstance(c, Lit) and c.code != EMPTY)
            concrete = puzzle.goal_is_concrete
            for code in sorted(set(goal_count) | set(start_count)):
                want, have = goal_count.get(code, 0), start_count.get(code, 0)
                if want > have or (concrete and want != have):
                    self.errors.error(
                        puzzle.goal_pos,
                        f"the goal can never be reached: it has {want} {puzzle.symbol(code)} but the start has {have}, "
                        "and no move adds or removes pieces",
                        f"a goal with {have} {puzzle.symbol(code)}",
                    )


def _creates(puzzle: Puzzle, code: int) -> bool:
    """Does some move leave more of this piece on the board than it found?"""
    lit = Lit(code)
    return any(sum(w.count(lit) for w in rule.rhs) > sum(w.count(lit) for w in rule.lhs) for rule in puzzle.rules)


def _conserves(rule: RewriteRule) -> bool:
    """Does the move keep the multiset of pieces? (Variables carry their piece along.)"""

    def tally(windows: tuple[Window, ...]) -> Counter[object]:
        return Counter(c if not isinstance(c, Lit) else c.code for w in windows for c in w if c != Lit(EMPTY))

    left, right = tally(rule.lhs), tally(rule.rhs)
    left_wild = left.pop(AnyCell(), 0)
    right_wild = right.pop(AnyCell(), 0)
    return left == right and left_wild == right_wild
