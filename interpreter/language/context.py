"""What elaboration knows about a spec while its passes run: the parameters' values (the
spec's, and those given from outside), the statements they choose, the collector every
mistake goes to, and the helpers the passes share (`of`, `single`, `eval`, `check_name`).

The passes (`topology`, `pieces`, `layouts`, `moves`, `rules`, assembled in `assemble`) each
take this context; `elaborate` makes it and runs them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import NOWHERE, Collector, ParameterRef, Pos, SpecError, suggest
from . import syntax as s
from .expressions import MAX_DIGITS, MAX_TEXT, Value, evaluate, show, type_name
from .levels import chosen_level
from .parser import keywords


def parse_override(name: str, text: str, default: Value) -> Value:
    """A command-line value, read as the same kind of value as the parameter's default, and
    held to the same bounds as a value written in the spec."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    if len(text) > MAX_TEXT:
        raise ValueError(f"the value of parameter {name} is {len(text):,} characters long; puzint takes {MAX_TEXT:,}")
    if isinstance(default, bool):
        if text.lower() in ("true", "yes", "1"):
            return True
        if text.lower() in ("false", "no", "0"):
            return False
        raise ValueError(f"parameter {name} takes true or false (yes or no, 1 or 0), got '{shown}'")
    if isinstance(default, int):
        return _whole_number(name, text, shown)
    if isinstance(default, tuple) and default and isinstance(default[0], tuple):
        return _lists(name, text, shown)
    if isinstance(default, (tuple, range)):
        parts = [part for part in text.replace(" ", "").strip("[]").split(",") if part]
        return tuple(_whole_number(name, part, shown, "numbers separated by commas") for part in parts)
    return text


def _lists(name: str, text: str, shown: str) -> tuple[tuple[int, ...], ...]:
    """A list of lists as -p takes it: the lists separated by `;`, each one's numbers by
    commas (`1;2,1;` is [[1], [2, 1], []]), or written as in the spec (`[[1], [2, 1], []]`)."""
    kind = "lists of numbers separated by ';' (1;2,1;3), or [[1], [2, 1], [3]]"
    flat = text.replace(" ", "")
    if flat.startswith("["):
        if not (flat.startswith("[[") and flat.endswith("]]")) and flat != "[]":
            raise ValueError(f"parameter {name} takes {kind}, got '{shown}'")
        flat = flat[2:-2].replace("],[", ";") if flat != "[]" else ""
        if "[" in flat or "]" in flat:
            raise ValueError(f"parameter {name} takes {kind}, got '{shown}'")
    if not flat:
        return ()
    return tuple(
        tuple(_whole_number(name, part, shown, kind) for part in inner.split(",") if part) for inner in flat.split(";")
    )


def _whole_number(name: str, text: str, shown: str, kind: str = "a whole number") -> int:
    digits = text.strip().removeprefix("-").removeprefix("+").replace("_", "")
    if not digits.isdigit() or not digits.isascii():
        raise ValueError(f"parameter {name} takes {kind}, got '{shown}'")
    if len(digits.lstrip("0")) > MAX_DIGITS:
        raise ValueError(f"parameter {name}: '{shown}' has more than {MAX_DIGITS} digits")
    return int(text.strip().replace("_", ""))


@dataclass
class Elaboration:
    """What elaboration has learned so far about the spec, shared by its passes."""

    spec: s.Spec
    overrides: dict[str, str]
    errors: Collector = field(default_factory=Collector)
    env: dict[str, Value] = field(default_factory=dict)
    param_pos: dict[str, Pos] = field(default_factory=dict)
    statements: list[s.Statement] = field(default_factory=list)
    reserved: frozenset[str] = field(default_factory=keywords)
    conditions: list[s.Expr] = field(default_factory=list)  # of the `if`s met, taken or not
    param_stmts: list[s.Param] = field(default_factory=list)

    # ---- the parameters and the statements they choose
    def prepare(self) -> None:
        """Read the parameters (the spec's and those given from outside), choose the
        statements the `if`s keep, and check the `require`s: what the passes start from."""
        self._walk(self.spec.statements)
        for name in self.overrides:
            if name not in self.env:
                known = ", ".join(self.param_pos) or "none: this spec has no parameters"
                self.errors.error(
                    NOWHERE,
                    f"unknown parameter '{name}'{suggest(name, self.param_pos)}",
                    f"one of: {known}",
                    ParameterRef(name, "name"),
                )
        self.errors.raise_if_any()
        self._refuse_unread_overrides()
        self._check_requirements()
        self.errors.raise_if_any()

    def _walk(self, statements: tuple[s.Statement, ...]) -> None:
        for stmt in statements:
            if isinstance(stmt, s.Param):
                self._param(stmt)
            elif isinstance(stmt, s.If):
                self.conditions.append(stmt.condition)
                try:
                    cond = evaluate(stmt.condition, self.env)
                except SpecError as exc:
                    self.errors.diagnostics.extend(exc.diagnostics)
                    continue
                if not isinstance(cond, bool):
                    self.errors.error(stmt.condition.pos, f"an if needs a condition, got {type_name(cond)}")
                    continue
                self._walk(stmt.then if cond else stmt.otherwise)
            elif isinstance(stmt, s.LevelFrom):
                self.conditions.append(stmt.number)  # its parameters are read
                self._level_from(stmt)
            else:
                self.statements.append(stmt)

    def _level_from(self, stmt: s.LevelFrom) -> None:
        """`level N from "FILE"`: the pictures of level N of the file's levels (read by the parser)."""
        number = self.eval_int(stmt.number, "a level's number", minimum=1)
        if number is None:
            return
        if stmt.only and len(stmt.levels) > 1:
            self.errors.error(
                stmt.file_pos,
                f"{stmt.file} has {len(stmt.levels)} levels: say which one",
                f'level N from "{stmt.file}" (N from 1 to {len(stmt.levels)})',
            )
            return
        if number > len(stmt.levels):
            count = len(stmt.levels)
            self.errors.error(
                stmt.number.pos,
                f"{stmt.file} has {count} level{'s' if count != 1 else ''}: there is no level {number}"
                f"{self.with_params()}",
                f"a number from 1 to {count}",
            )
            return
        self.statements.extend(chosen_level(stmt, number))

    def _refuse_unread_overrides(self) -> None:
        """A parameter given from outside that nothing in use reads (`--seed` when the bottom
        row is not random: the branch that reads it was not taken) would silently change
        nothing: it is refused. A word anywhere in the statements in use, the conditions of
        the `if`s, or the defaults of the parameters left as they are counts as a reading."""
        read = self.params_read()
        for name in self.overrides:
            if name in self.param_pos and name not in read:
                others = {k: v for k, v in self.params.items() if k != name}
                where = " (with " + ", ".join(f"{k}={show(v)}" for k, v in others.items()) + ")" if others else ""  # type: ignore[arg-type]
                self.errors.error(
                    NOWHERE,
                    f"parameter '{name}' is set but changes nothing{where}: no statement in use reads it",
                    "only parameters that the spec uses with these values",
                    ParameterRef(name, "name"),
                )
        self.errors.raise_if_any()

    def params_read(self) -> set[str]:
        """The words of the statements in use, the `if`s' conditions and the defaults of the
        parameters left as they are: a parameter among them takes part in this puzzle (the
        others are not shown in its title: `seed` where the bottom row is not random)."""
        read: set[str] = set()
        _words(self.statements, read)
        _words(self.conditions, read)
        _words([stmt.default for stmt in self.param_stmts if stmt.name not in self.overrides], read)
        return read

    def _param(self, stmt: s.Param) -> None:
        if stmt.name in self.param_pos:
            first = self.param_pos[stmt.name]
            self.errors.error(stmt.pos, f"parameter '{stmt.name}' is declared twice (first on line {first.line})")
            return
        self.check_name(stmt.pos, stmt.name, "a parameter")
        try:
            default = evaluate(stmt.default, self.env)
        except SpecError as exc:
            self.errors.diagnostics.extend(exc.diagnostics)
            return
        value = default
        if stmt.name in self.overrides:
            try:
                value = parse_override(stmt.name, self.overrides[stmt.name], default)
            except ValueError as exc:
                self.errors.error(
                    stmt.pos,
                    str(exc),
                    f"{type_name(default)} like {show(default)}",
                    ParameterRef(stmt.name, "value"),
                )
        self.param_stmts.append(stmt)
        if stmt.choices:
            value = self._one_of(stmt, default, value)
        self.env[stmt.name] = value
        self.param_pos[stmt.name] = stmt.pos

    def _one_of(self, stmt: s.Param, default: Value, value: Value) -> Value:
        """`param island = "none" one of "none", "any", "banks"`: the default and any value
        given from outside must be one of the choices (a typo is not another variant)."""
        choices = [self.eval(choice) for choice in stmt.choices]
        if any(choice is None for choice in choices):
            return value
        listed = ", ".join(show(c) for c in choices)  # type: ignore[arg-type]
        if default not in choices:
            self.errors.error(stmt.default.pos, f"the default {show(default)} is not one of {listed}", listed)
        if value not in choices and value is not default:
            # suggested as the user writes a value after -p NAME= (`3,4`), never as Python prints it (`(3, 4)`)
            words = [show(c) for c in choices if c is not None]
            self.errors.error(
                stmt.pos,
                f"{stmt.name} must be one of {listed}, got {show(value)}{suggest(show(value), words)}",
                listed,
                ParameterRef(stmt.name, "value"),
            )
        return value

    def _check_requirements(self) -> None:
        for stmt in self.statements:
            if isinstance(stmt, s.Require):
                ok = self.eval(stmt.condition)
                if ok is None:
                    continue
                if not isinstance(ok, bool):
                    self.errors.error(stmt.condition.pos, f"require needs a condition, got {type_name(ok)}")
                elif not ok:
                    message = stmt.message or "this requirement on the parameters does not hold"
                    self.errors.error(
                        stmt.condition.pos, f"{message}{self.with_params()}", "parameters that satisfy it"
                    )

    # ---- helpers shared by the passes
    def check_name(self, pos: Pos, name: str, what: str) -> None:
        if name in self.reserved:
            self.errors.error(pos, f"'{name}' is a word of the language and cannot name {what}", "another name")

    def eval(self, expr: s.Expr) -> Value | None:
        try:
            return evaluate(expr, self.env)
        except SpecError as exc:
            self.errors.diagnostics.extend(exc.diagnostics)
            return None

    def eval_int(self, expr: s.Expr, what: str, minimum: int | None = 0) -> int | None:
        value = self.eval(expr)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.errors.error(expr.pos, f"{what} must be a number, got {type_name(value)}", "a number")
            return None
        if minimum is not None and value < minimum:
            self.errors.error(expr.pos, f"{what} must be at least {minimum}, got {value}{self.with_params()}")
            return None
        return value

    def within(self, pos: Pos, value: range | tuple[object, ...] | str, what: str, limit: int) -> bool:
        """Whether a range, list or text is small enough to be built into `what` (else an error
        at `pos`, before anything is built)."""
        if len(value) <= limit:
            return True
        too_many = f"{what} has {len(value):,} members{self.with_params()}; puzint takes at most {limit:,}"
        self.errors.error(pos, too_many, f"at most {limit:,}")
        return False

    def with_params(self) -> str:
        if not self.param_pos:
            return ""
        return " (with " + ", ".join(f"{k}={show(self.env[k])}" for k in self.param_pos) + ")"

    def of(self, cls: type) -> list:  # type: ignore[type-arg]
        return [x for x in self.statements if isinstance(x, cls)]

    def single(self, cls: type, what: str, required: bool = False, expected: str | None = None) -> s.Statement | None:
        found = self.of(cls)
        for extra in found[1:]:
            self.errors.error(extra.pos, f"{what} is given twice (first on line {found[0].pos.line})", "only one")
        if not found and required:
            self.errors.absent(f"the spec has no {what}", expected)
        return found[0] if found else None

    @property
    def params(self) -> dict[str, object]:
        return {k: self.env[k] for k in self.param_pos}


def _words(node: object, into: set[str]) -> None:
    """Every text inside a syntax tree (names, and words of patterns and layouts alike)."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            into.add(item)
        elif isinstance(item, (tuple, list)):
            stack.extend(item)
