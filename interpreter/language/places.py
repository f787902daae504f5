"""Elaboration of boards of places (river banks, a boat, an island): places and routes, pieces
(one per member of a group when declared `per GROUP`), the carrier, carry moves and safety
rules. Shares the parameter handling and error collection of `elaborate`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..compiler.predicates import PredicateContext, compile_predicate
from ..errors import Pos, SpecError
from ..model import EMPTY, CarryRule, Lit, Person, PieceType, PlacesPuzzle, SafetyRule
from . import syntax as s

if TYPE_CHECKING:
    from .elaborate import _Elaborator

# Statements of cell boards, and what to write on a board of places instead.
CELLS_ONLY = {
    s.LayoutDecl: ("a start or goal layout of cells", "start at PLACE: everyone (or pieces)"),
    s.ComputedLayout: ("a start or goal layout of cells", "start at PLACE: everyone (or pieces)"),
    s.Direction: ("directions", "routes: route A <-> B"),
    s.SymmetryDecl: ("symmetries (on boards of places, not yet)", "no symmetry line"),
    s.PiecesDecl: ("'pieces' (numbered or lettered pieces)", "piece SYMBOL KIND [per GROUP]"),
}


class PlacesBuilder:
    def __init__(self, ctx: _Elaborator, stmts: list[s.Statement], board: s.Board):
        self.ctx = ctx
        self.errors = ctx.errors
        self.stmts = stmts
        self.board = board

    def build(self) -> PlacesPuzzle:
        stmts, errors = self.stmts, self.errors
        for stmt in stmts:
            for cls, (what, instead) in CELLS_ONLY.items():
                if isinstance(stmt, cls):
                    errors.error(stmt.pos, f"{what} cannot be used on a board of places", instead)
            if isinstance(stmt, s.Move) and isinstance(stmt.rule, s.Rewrite):
                errors.error(
                    stmt.pos,
                    "rewrite moves need a board of cells; places take carry moves",
                    "carry LOW..HIGH in CARRIER",
                )
        places = self._places()
        routes = self._routes(places)
        people, kinds = self._people(places)
        carrier, carrier_start = self._carrier(places)
        start = self._start(places, people)
        goal = self._goal(places, people)
        rules = self._rules(carrier, kinds)
        safety = self._safety(people, places)
        errors.raise_if_any()
        title = self.ctx._single(stmts, s.PuzzleTitle, "puzzle title", required=False)
        about = self.ctx._single(stmts, s.About, "about text", required=False)
        scope = self.ctx.scope
        assert start is not None and goal is not None and carrier is not None
        return PlacesPuzzle(
            title=title.title if isinstance(title, s.PuzzleTitle) else self.ctx.spec.filename,
            about=about.text if isinstance(about, s.About) else "",
            params={k: scope.env[k] for k in scope.param_pos},
            places=places,
            routes=routes,
            carrier=carrier,
            carrier_start=carrier_start,
            people=people,
            start=start,
            goal=goal,
            rules=rules,
            safety=safety,
            param_env=dict(scope.env),
        )

    # ---- places and routes
    def _places(self) -> tuple[str, ...]:
        seen: list[str] = []
        for name in self.board.places:
            if name in seen:
                self.errors.error(self.board.pos, f"place '{name}' is named twice", "distinct place names")
            self.ctx._check_name(self.board.pos, name, "a place")
            seen.append(name)
        if len(seen) < 2:
            self.errors.error(self.board.pos, "a board of places needs at least two places", "board places A, B")
        return tuple(seen)

    def _place(self, places: tuple[str, ...], name: str, pos: Pos) -> int | None:
        if name in places:
            return places.index(name)
        self.errors.error(pos, f"unknown place '{name}'", "one of: " + ", ".join(places))
        return None

    def _routes(self, places: tuple[str, ...]) -> frozenset[tuple[int, int]]:
        routes: set[tuple[int, int]] = set()
        declared = [x for x in self.stmts if isinstance(x, s.Route)]
        for route in declared:
            a = self._place(places, route.source, route.pos)
            b = self._place(places, route.target, route.pos)
            if a is None or b is None:
                continue
            if a == b:
                self.errors.error(route.pos, "a route must join two different places")
            routes.add((a, b))
            if route.both_ways:
                routes.add((b, a))
        if not declared:
            routes = {(a, b) for a in range(len(places)) for b in range(len(places)) if a != b}
        return frozenset(routes)

    # ---- pieces
    def _groups(self) -> dict[str, list[int | str]]:
        groups: dict[str, list[int | str]] = {}
        for stmt in self.stmts:
            if not isinstance(stmt, s.GroupDecl):
                continue
            self.ctx._check_name(stmt.pos, stmt.name, "a group")
            value = self.ctx._eval(stmt.members)
            if isinstance(value, (range, str)):
                groups[stmt.name] = list(value)
            elif value is not None:
                self.errors.error(stmt.members.pos, "a group's members are a range or text", "1..n or letters(n)")
            if stmt.name in groups and not groups[stmt.name]:
                self.errors.error(stmt.members.pos, f"group '{stmt.name}' has no members{self.ctx._with_params()}")
        return groups

    def _people(self, places: tuple[str, ...]) -> tuple[tuple[Person, ...], dict[str, PieceType]]:
        """Every piece instance, in a fixed order that keeps interchangeable ones together."""
        groups = self._groups()
        kinds: dict[str, PieceType] = {}
        members: dict[str, list[int | str] | None] = {}
        for stmt in self.stmts:
            if not isinstance(stmt, s.PieceDecl):
                continue
            if len(stmt.symbol) != 1:
                self.errors.error(stmt.pos, f"a piece symbol is one letter, got '{stmt.symbol}'", "one letter")
                continue
            if stmt.symbol in kinds:
                self.errors.error(stmt.pos, f"piece '{stmt.symbol}' is declared twice")
                continue
            kind = stmt.kind or stmt.symbol
            self.ctx._check_name(stmt.pos, kind, "a kind of piece")
            glyph = stmt.drawn or stmt.symbol
            kinds[stmt.symbol] = PieceType(len(kinds) + 1, stmt.symbol, kind, stmt.description or kind, glyph)
            if stmt.per_group is None:
                members[stmt.symbol] = None
            elif stmt.per_group not in groups:
                known = ", ".join(groups) or "none declared"
                self.errors.error(stmt.pos, f"unknown group '{stmt.per_group}'", f"a group ({known})")
            else:
                members[stmt.symbol] = groups[stmt.per_group]
        if not kinds:
            self.errors.error(Pos(1, 1), "the spec declares no pieces", "piece SYMBOL KIND")
        self.kinds = kinds
        self.members = members
        self.group_of = {
            x.symbol: x.per_group for x in self.stmts if isinstance(x, s.PieceDecl) and x.per_group in groups
        }
        counts = self._plain_counts()
        people: list[Person] = []
        for symbol, piece in kinds.items():
            group = members.get(symbol)
            if group is None:
                people.extend(Person(symbol, symbol, piece.kind, piece.glyph) for _ in range(counts.get(symbol, 1)))
            else:
                attribute = self.group_of[symbol]
                people.extend(Person(f"{symbol}{m}", symbol, piece.kind, piece.glyph, ((attribute, m),)) for m in group)
        return tuple(people), kinds

    def _plain_counts(self) -> dict[str, int]:
        """How many of each plain (not per-group) piece the start layouts name."""
        counts: dict[str, int] = {}
        for stmt in self.stmts:
            if isinstance(stmt, s.PlaceLayout) and stmt.which == "start" and stmt.contents is not None:
                for symbol in self._symbols(stmt.contents):
                    counts[symbol] = counts.get(symbol, 0) + 1
        return counts

    def _symbols(self, layout: s.Layout) -> list[str]:
        codes = self.ctx._expand(layout.items, self.kinds, "start")
        symbols = []
        by_code = {p.code: p.symbol for p in self.kinds.values()}
        for cell in codes:
            if isinstance(cell, Lit) and cell.code != EMPTY:
                symbol = by_code[cell.code]
                if self.members.get(symbol) is not None:
                    self.errors.error(
                        layout.pos, f"{symbol} stands for one piece per member of its group: write everyone", "everyone"
                    )
                symbols.append(symbol)
            else:
                self.errors.error(layout.pos, "a place holds pieces: _ and ? mean nothing here", "piece symbols")
        return symbols

    # ---- carrier, start, goal
    def _carrier(self, places: tuple[str, ...]) -> tuple[str | None, int]:
        found = [x for x in self.stmts if isinstance(x, s.Carrier)]
        for extra in found[1:]:
            self.errors.error(extra.pos, "only one carrier is supported", "one carrier line")
        if not found:
            self.errors.error(
                self.board.pos, "a board of places needs a carrier that moves the pieces", "carrier NAME at PLACE"
            )
            return None, 0
        self.ctx._check_name(found[0].pos, found[0].name, "a carrier")
        where = self._place(places, found[0].place, found[0].pos)
        return found[0].name, where or 0

    def _layouts(self, which: str) -> list[s.PlaceLayout]:
        return [x for x in self.stmts if isinstance(x, s.PlaceLayout) and x.which == which]

    def _start(self, places: tuple[str, ...], people: tuple[Person, ...]) -> tuple[int, ...] | None:
        layouts = self._layouts("start")
        if not layouts:
            self.errors.error(Pos(1, 1), "the spec has no start", "start at PLACE: everyone")
            return None
        where: list[int | None] = [None] * len(people)
        for layout in layouts:
            place = self._place(places, layout.place, layout.pos)
            if place is None:
                continue
            if layout.contents is None:
                where = [place if w is None else w for w in where]
                continue
            for symbol in self._symbols(layout.contents):
                free = next((i for i, p in enumerate(people) if p.name == symbol and where[i] is None), None)
                if free is not None:
                    where[free] = place
        if None in where:
            missing = sorted({people[i].name for i, w in enumerate(where) if w is None})
            self.errors.error(layouts[0].pos, f"the start does not place {', '.join(missing)}", "everyone placed")
            return None
        return tuple(w for w in where if w is not None)

    def _goal(self, places: tuple[str, ...], people: tuple[Person, ...]) -> tuple[tuple[str, int, int], ...] | None:
        layouts = self._layouts("goal")
        if not layouts:
            self.errors.error(Pos(1, 1), "the spec has no goal", "goal at PLACE: everyone")
            return None
        wanted: dict[tuple[str, int], int] = {}
        for layout in layouts:
            place = self._place(places, layout.place, layout.pos)
            if place is None:
                continue
            names = [p.name for p in people] if layout.contents is None else self._symbols(layout.contents)
            for name in names:
                wanted[(name, place)] = wanted.get((name, place), 0) + 1
        total = {p.name: sum(1 for q in people if q.name == p.name) for p in people}
        for (name, _place), count in wanted.items():
            if count > total.get(name, 0):
                self.errors.error(
                    layouts[0].pos,
                    f"the goal wants {count} {name} but there are {total.get(name, 0)}",
                    f"at most {total.get(name, 0)}",
                )
        return tuple((name, place, count) for (name, place), count in wanted.items())

    # ---- moves and safety
    def _rules(self, carrier: str | None, kinds: dict[str, PieceType]) -> tuple[CarryRule, ...]:
        rules = []
        kind_words = {p.kind for p in kinds.values()} | set(kinds)
        moves = [x for x in self.stmts if isinstance(x, s.Move) and isinstance(x.rule, s.Carry)]
        if not moves:
            self.errors.error(Pos(1, 1), "the spec has no moves", "move NAME: carry LOW..HIGH in CARRIER")
        for move in moves:
            rule = move.rule
            assert isinstance(rule, s.Carry)
            if carrier is not None and rule.carrier != carrier:
                self.errors.error(rule.pos, f"unknown carrier '{rule.carrier}'", f"the carrier {carrier}")
            low = self.ctx._eval_int(rule.load.low, "the smallest load", 0)
            high = self.ctx._eval_int(rule.load.high, "the largest load", 1)
            for word in (*rule.with_, *rule.only):
                if word not in kind_words:
                    self.errors.error(
                        rule.pos, f"unknown kind of piece '{word}'", "one of: " + ", ".join(sorted(kind_words))
                    )
            if low is None or high is None:
                continue
            if low > high:
                self.errors.error(
                    rule.load.pos, f"the load {low}..{high} is empty{self.ctx._with_params()}", "LOW <= HIGH"
                )
                continue
            rules.append(CarryRule(move.name, move.pos, low, high, rule.with_, rule.only))
        return tuple(rules)

    def _safety(self, people: tuple[Person, ...], places: tuple[str, ...]) -> tuple[SafetyRule, ...]:
        rules = []
        context = PredicateContext(people, places, dict(self.ctx.scope.env))
        lines = self.ctx.spec.source.splitlines()
        for stmt in self.stmts:
            if not isinstance(stmt, s.Safe):
                continue
            scope = "places" if stmt.scope == "board" else stmt.scope
            for condition in stmt.conditions:
                try:
                    compile_predicate(condition, context)
                except SpecError as exc:
                    self.errors.diagnostics.extend(exc.diagnostics)
                    continue
                line = lines[condition.pos.line - 1] if 0 < condition.pos.line <= len(lines) else ""
                text = line[condition.pos.column - 1 :].strip()
                rules.append(SafetyRule(condition.pos, scope, condition, text))
        return tuple(rules)
