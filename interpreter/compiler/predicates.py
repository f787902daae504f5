"""Predicates of the spec (safety rules) compiled into Python closures over a state.

No source text is ever executed: each syntax node becomes a small function, and names,
kinds, places and attributes are resolved once, here, with positioned errors for the ones
that do not exist. Each node is also given a type (truth, number, text, piece), so that
comparing a piece with a number is reported before any search starts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import Pos
from ..language import syntax as s
from ..model import Person
from .operators import BOOL, INT, STR, binary
from .operators import expect as _expect
from .operators import fail as _fail

PERSON = "a piece"


@dataclass
class Env:
    """Where everyone is (`where[i]` = place of person i), the persons in the place being
    checked (`here`), and the quantifier variables bound so far."""

    where: tuple[int, ...] | bytes
    here: frozenset[int]
    binding: dict[str, int] = field(default_factory=dict)


Fn = Callable[[Env], object]


class PredicateContext:
    def __init__(self, people: tuple[Person, ...], places: tuple[str, ...], params: dict[str, object]):
        self.people = people
        self.places = {name: i for i, name in enumerate(places)}
        self.params = params
        self.kinds: dict[str, list[int]] = {}
        for i, person in enumerate(people):
            for word in {person.kind, person.symbol}:
                self.kinds.setdefault(word, []).append(i)
        self.named: dict[str, int] = {}
        for i, person in enumerate(people):
            self.named.setdefault(person.name, i)
        counts: dict[str, int] = {}
        for person in people:
            counts[person.name] = counts.get(person.name, 0) + 1
        self.unique = {name: i for name, i in self.named.items() if counts[name] == 1}
        for word, members in self.kinds.items():  # `farmer` names the farmer when there is one
            if len(members) == 1:
                self.unique.setdefault(word, members[0])
        self.attributes = {a for p in people for a, _ in p.attributes}
        self.uses_state = False  # set while compiling: does the rule look beyond `here`?


def compile_predicate(expr: s.Expr, ctx: PredicateContext) -> tuple[Fn, bool]:
    """A closure evaluating the rule, and whether it depends on more than the place checked."""
    ctx.uses_state = False
    fn, kind = _compile(expr, ctx, frozenset())
    if kind != BOOL:
        raise _fail(expr.pos, f"a safety rule must be a condition, this is {kind}", "a condition")
    return fn, ctx.uses_state


def _domain(ctx: PredicateContext, kind: str, location: s.Location | None, pos: Pos) -> Callable[[Env], list[int]]:
    if kind not in ctx.kinds:
        known = ", ".join(sorted(ctx.kinds))
        raise _fail(pos, f"unknown kind of piece '{kind}'", f"one of: {known}")
    members = ctx.kinds[kind]
    if location is None:
        ctx.uses_state = True
        return lambda env: members
    if location.place is None:
        return lambda env: [i for i in members if i in env.here]
    place = _place(ctx, location)
    ctx.uses_state = True
    return lambda env: [i for i in members if env.where[i] == place]


def _place(ctx: PredicateContext, location: s.Location) -> int:
    assert location.place is not None
    if location.place not in ctx.places:
        raise _fail(location.pos, f"unknown place '{location.place}'", "one of: " + ", ".join(ctx.places))
    return ctx.places[location.place]


def _compile(expr: s.Expr, ctx: PredicateContext, bound: frozenset[str]) -> tuple[Fn, str]:
    if isinstance(expr, s.Num):
        value = expr.value
        return (lambda env: value), INT
    if isinstance(expr, s.Str):
        text = expr.value
        return (lambda env: text), STR
    if isinstance(expr, s.Bool):
        truth = expr.value
        return (lambda env: truth), BOOL
    if isinstance(expr, s.Name):
        name = expr.name
        if name in bound:
            return (lambda env: env.binding[name]), PERSON
        if name in ctx.params:
            param = ctx.params[name]
            kind = BOOL if isinstance(param, bool) else INT if isinstance(param, int) else STR
            return (lambda env: param), kind
        if name in ctx.unique:
            unique = ctx.unique[name]
            return (lambda env: unique), PERSON
        names = sorted(bound | set(ctx.params) | set(ctx.unique))
        raise _fail(expr.pos, f"unknown name '{name}'", "a variable, a parameter or a piece: " + ", ".join(names))
    if isinstance(expr, s.Attr):
        obj, kind = _compile(expr.obj, ctx, bound)
        if kind != PERSON:
            raise _fail(expr.obj.pos, f"only pieces have attributes, this is {kind}", "a piece")
        if expr.name not in ctx.attributes:
            known = ", ".join(sorted(ctx.attributes)) or "none"
            raise _fail(expr.pos, f"no piece has the attribute '{expr.name}'", f"one of: {known}")
        people, attr = ctx.people, expr.name
        return (lambda env: people[int(obj(env))].attribute(attr)), INT  # type: ignore[call-overload]
    if isinstance(expr, s.Unary):
        inner, kind = _compile(expr.operand, ctx, bound)
        if expr.op == "not":
            _expect(expr.operand, kind, BOOL)
            return (lambda env: not inner(env)), BOOL
        _expect(expr.operand, kind, INT)
        return (lambda env: -inner(env)), INT  # type: ignore[operator]
    if isinstance(expr, s.Binary):
        return _binary(expr, ctx, bound)
    if isinstance(expr, s.Located):
        person, kind = _compile(expr.operand, ctx, bound)
        _expect(expr.operand, kind, PERSON)
        if expr.location.place is None:
            return (lambda env: person(env) in env.here), BOOL
        where_to = _place(ctx, expr.location)
        ctx.uses_state = True
        return (lambda env: env.where[int(person(env))] == where_to), BOOL  # type: ignore[call-overload]
    if isinstance(expr, s.IsEmpty):
        if isinstance(expr.operand, s.Name) and expr.operand.name in ctx.places:
            empty_place = ctx.places[expr.operand.name]
            ctx.uses_state = True
            return (lambda env: empty_place not in env.where), BOOL
        raise _fail(expr.pos, "only a place can be empty here", "PLACE is empty")
    if isinstance(expr, s.Count):
        domain = _domain(ctx, expr.kind, expr.location, expr.pos)
        return (lambda env: len(domain(env))), INT
    if isinstance(expr, s.Quantified):
        return _quantified(expr, ctx, bound)
    if isinstance(expr, s.Call) and expr.name == "together":
        if len(expr.args) < 2:
            raise _fail(expr.pos, "together() takes two or more pieces", "together(a, b)")
        pieces: list[Fn] = []
        for arg in expr.args:
            piece, kind = _compile(arg, ctx, bound)
            _expect(arg, kind, PERSON)
            pieces.append(piece)
        ctx.uses_state = True
        return (lambda env: len({env.where[int(p(env))] for p in pieces}) == 1), BOOL  # type: ignore[call-overload]
    raise _fail(expr.pos, "this expression cannot be used in a safety rule", "conditions about pieces and places")


def _binary(expr: s.Binary, ctx: PredicateContext, bound: frozenset[str]) -> tuple[Fn, str]:
    left, lk = _compile(expr.left, ctx, bound)
    right, rk = _compile(expr.right, ctx, bound)
    return binary(expr, left, lk, right, rk)


def _quantified(expr: s.Quantified, ctx: PredicateContext, bound: frozenset[str]) -> tuple[Fn, str]:
    domain = _domain(ctx, expr.kind, expr.location, expr.pos)
    if expr.body is None:
        if expr.quantifier == "some":
            return (lambda env: bool(domain(env))), BOOL
        if expr.quantifier == "no":
            return (lambda env: not domain(env)), BOOL
        everyone = ctx.kinds[expr.kind]
        return (lambda env: len(domain(env)) == len(everyone)), BOOL
    var = expr.var or "_"
    body, kind = _compile(expr.body, ctx, bound | {var})
    _expect(expr.body, kind, BOOL)

    def holds(env: Env, person: int) -> bool:
        saved = env.binding.get(var)
        env.binding[var] = person
        try:
            return bool(body(env))
        finally:
            if saved is None:
                env.binding.pop(var, None)
            else:
                env.binding[var] = saved

    if expr.quantifier == "every":
        return (lambda env: all(holds(env, p) for p in domain(env))), BOOL
    if expr.quantifier == "some":
        return (lambda env: any(holds(env, p) for p in domain(env))), BOOL
    return (lambda env: not any(holds(env, p) for p in domain(env))), BOOL
