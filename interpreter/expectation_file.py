"""Reading an expectation file (SPEC.yaml) against its schema, with a position for every mistake.

The YAML is composed into nodes (each with its line and column) and checked before anything
is built from it: anchors and aliases are refused (an expectation file has no use for them,
and an alias bomb would otherwise expand to gigabytes), so are duplicate keys, unknown keys,
values of the wrong type and numbers out of range. Every mistake in the file is reported in
one run, like a spec's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import NOWHERE, Collector, Diagnostic, Pos, SpecError, suggest
from .sources import read_source, read_text

STATUSES = ("solved", "no-solution")
COUNTS = (
    "length",
    "cost",
    "count",
    "count_up_to_symmetry",
    "reachable",
    "reachable_up_to_symmetry",
    "reachable_goals",
    "depth",
    "trajectories",
    "trajectories_up_to_symmetry",
    "solutions",
    "solutions_in_all",
)
FIELDS = ("status", *COUNTS, "optimum")  # optimum: a filling's `maximize`/`minimize`, its best value
CASE_KEYS = ("params", "note", "slow", *FIELDS)
NO_SOLUTION_HAS_NO = (
    "length",
    "cost",
    "count",
    "count_up_to_symmetry",
    "trajectories",
    "trajectories_up_to_symmetry",
    "optimum",
)

MAX_NESTING = 20  # a file of cases nests 5 deep (cases, a case, params, a list); composing recurses

INT = "tag:yaml.org,2002:int"
STR = "tag:yaml.org,2002:str"
BOOL = "tag:yaml.org,2002:bool"


@dataclass
class Case:
    """One case: the parameters (as text, as if given with -p) and the results expected."""

    params: dict[str, str]
    expected: dict[str, Any]
    slow: bool = False
    param_pos: dict[str, Pos] = field(default_factory=dict)
    value_pos: dict[str, Pos] = field(default_factory=dict)
    key_pos: dict[str, Pos] = field(default_factory=dict)
    pos: Pos = NOWHERE


@dataclass
class ExpectationFile:
    path: Path
    source: str
    cases: list[Case]

    def error(self, diagnostics: list[Diagnostic]) -> SpecError:
        return SpecError(diagnostics, self.source, str(self.path))


def read_expectations(path: Path) -> ExpectationFile:
    """The cases of one expectation file, or a SpecError listing every mistake in it."""
    return expectations_in(read_source(path, "expectation file"), path)


def expectations_in(text: str, path: Path) -> ExpectationFile:
    """The cases of the text of an expectation file at `path`, read as the file would be:
    `check --record` reads what it is about to write, before it writes it."""
    source = _yaml_line_breaks(read_text(text, str(path), "expectation file"))
    errors = Collector()
    root = _compose(source, str(path))
    cases = _cases(root, errors)
    if errors:
        raise SpecError(errors.diagnostics, source, str(path))
    return ExpectationFile(path, source, cases)


def _yaml_line_breaks(source: str) -> str:
    """YAML also breaks lines at NEL and the Unicode line and paragraph separators: as `\n`,
    so that its marks and the line shown under a caret count the same lines."""
    return source.replace("\x85", "\n").replace("\u2028", "\n").replace("\u2029", "\n")


def _compose(source: str, filename: str) -> yaml.Node | None:
    """The document's node tree; anchors, aliases and several documents are refused."""
    try:
        depth = 0
        for event in yaml.parse(source, Loader=yaml.SafeLoader):
            anchor = getattr(event, "anchor", None)
            if isinstance(event, yaml.AliasEvent) or anchor is not None:
                refused = "anchors and aliases (& and *) are not used in expectation files"
                raise SpecError([Diagnostic(_pos(event.start_mark), refused, "plain values")], source, filename)
            depth += isinstance(event, yaml.CollectionStartEvent) - isinstance(event, yaml.CollectionEndEvent)
            if depth > MAX_NESTING:
                too_deep = f"the YAML nests more than {MAX_NESTING} lists or mappings deep"
                expected = "cases, each a mapping of keys to values (params: a mapping)"
                raise SpecError([Diagnostic(_pos(event.start_mark), too_deep, expected)], source, filename)
        return yaml.compose(source, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "not valid YAML"
        context = exc.context or ""
        if context and not context.startswith("while "):
            problem = f"{context}, {problem}"
        diags = [Diagnostic(_pos(mark), f"bad YAML: {problem}", "YAML like the files in specs/")]
        if context.startswith("while ") and exc.context_mark is not None and mark is not None:
            within = context.split(" ", 2)[-1].removeprefix("a ").removeprefix("an ")
            if exc.context_mark.line != mark.line:
                diags.append(Diagnostic(_pos(exc.context_mark), f"bad YAML: in the {within} that starts here"))
        raise SpecError(diags, source, filename) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow: no mark, an offset
        line = source.count("\n", 0, exc.position) + 1
        column = exc.position - (source.rfind("\n", 0, exc.position) + 1) + 1
        char = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
        diag = Diagnostic(Pos(line, column), f"bad YAML: the character {char} is not allowed", "printable text")
        raise SpecError([diag], source, filename) from None
    except yaml.YAMLError as exc:
        raise SpecError(
            [Diagnostic(Pos(1, 1), f"bad YAML: {exc}", "YAML like the files in specs/")], source, filename
        ) from None


def _pos(mark: Any, end: Any = None) -> Pos:
    if mark is None:
        return Pos(0, 0)
    width = end.column - mark.column if end is not None and end.line == mark.line else 1
    return Pos(mark.line + 1, mark.column + 1, max(1, width))


def _at(node: yaml.Node) -> Pos:
    return _pos(node.start_mark, node.end_mark)


Entries = dict[str, tuple[yaml.Node, yaml.Node]]


def _mapping(node: yaml.Node, what: str, keys: tuple[str, ...] | None, errors: Collector) -> Entries:
    """A mapping's entries by key, each key once; unknown keys refused when `keys` is given."""
    if not isinstance(node, yaml.MappingNode):
        errors.error(_at(node), f"{what} must be a mapping (key: value lines), got {_kind(node)}", "key: value lines")
        return {}
    entries: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode) or key.tag not in (STR, INT, BOOL):
            errors.error(_at(key), f"a key in {what} must be a name, got {_kind(key)}", "a name")
            continue
        name = str(key.value)
        if name in entries:
            first = entries[name][0].start_mark.line + 1
            errors.error(_at(key), f"'{name}' is given twice in {what} (first on line {first})", "each key once")
            continue
        if keys is not None and name not in keys:
            errors.error(_at(key), f"unknown key '{name}' in {what}{suggest(name, keys)}", "one of: " + ", ".join(keys))
            continue
        entries[name] = (key, value)
    return entries


def _cases(root: yaml.Node | None, errors: Collector) -> list[Case]:
    if root is None:
        errors.error(Pos(1, 1), "the file is empty", "cases: followed by a list of cases")
        return []
    before = len(errors.diagnostics)
    top = _mapping(root, "the file", ("cases",), errors)
    if "cases" not in top:
        if isinstance(root, yaml.MappingNode) and len(errors.diagnostics) == before:
            errors.error(_at(root), "the file has no 'cases:'", "cases: followed by a list of cases")
        return []
    listing = top["cases"][1]
    if not isinstance(listing, yaml.SequenceNode) or not listing.value:
        got = _kind(listing) if listing.value else "an empty list"
        errors.error(_at(listing), f"'cases' must be a list of cases, got {got}", "lines starting with - under cases:")
        return []
    return [case for node in listing.value if (case := _case(node, errors)) is not None]


def _case(node: yaml.Node, errors: Collector) -> Case | None:
    before = len(errors.diagnostics)
    entries = _mapping(node, "a case", CASE_KEYS, errors)
    case = Case({}, {}, pos=_at(node))
    for name, (key, value) in entries.items():
        case.key_pos[name] = _at(key)
        if name == "params":
            _params(value, case, errors)
        elif name == "note":
            _scalar(value, name, (STR,), "text", errors)
        elif name == "slow":
            case.slow = _scalar(value, name, (BOOL,), "true or false", errors) is True
        elif name == "status":
            status = _scalar(value, name, (STR,), "solved or no-solution", errors)
            if status is not None and status not in STATUSES:
                unknown = f"unknown status '{status}'{suggest(str(status), STATUSES)}"
                errors.error(_at(value), unknown, "solved or no-solution")
            elif status is not None:
                case.expected[name] = status
                case.value_pos[name] = _at(value)
        elif name == "cost" and isinstance(value, yaml.SequenceNode):  # a cost of several parts, in order
            parts = [_scalar(item, name, (INT,), "a whole number", errors) for item in value.value]
            if parts and None not in parts:
                case.expected[name] = parts
                case.value_pos[name] = _at(value)
            elif not parts:
                errors.error(_at(value), "a cost of several parts lists them", "cost: [8, 33]")
        elif name == "optimum":  # a best value: of any sign
            number = _scalar(value, name, (INT,), "a whole number", errors)
            if number is not None:
                case.expected[name] = number
                case.value_pos[name] = _at(value)
        else:
            number = _scalar(value, name, (INT,), "a whole number", errors)
            if number is not None and number < 0:
                errors.error(_at(value), f"{name} cannot be negative, got {number}", "a whole number, 0 or more")
            elif number is not None:
                case.expected[name] = number
                case.value_pos[name] = _at(value)
    if case.expected.get("status") == "no-solution":
        for name in NO_SOLUTION_HAS_NO:
            if name in case.expected:
                errors.error(case.value_pos[name], f"a case with status no-solution has no {name}", "no " + name)
    case.expected.setdefault("status", "solved")
    return case if len(errors.diagnostics) == before else None


def _params(node: yaml.Node, case: Case, errors: Collector) -> None:
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null":
        return
    for name, (key, value) in _mapping(node, "params", None, errors).items():
        text = _param_value(value, name, errors)
        if text is not None:
            case.params[name] = text
            case.param_pos[name] = _at(key)
            case.value_pos["params." + name] = _at(value)


def _param_value(node: yaml.Node, name: str, errors: Collector) -> str | None:
    """A parameter's value as it would be typed after -p NAME=: a number, a word, true/false,
    or a list of numbers."""
    expected = "a number, a word, true or false, or a list of numbers"
    if isinstance(node, yaml.SequenceNode):
        parts = [_scalar(item, f"parameter {name}", (INT,), "a whole number", errors) for item in node.value]
        return None if None in parts else ",".join(str(p) for p in parts)
    value = _scalar(node, f"parameter {name}", (INT, STR, BOOL), expected, errors)
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_CONSTRUCT = yaml.SafeLoader("")


def _scalar(node: yaml.Node, what: str, tags: tuple[str, ...], expected: str, errors: Collector) -> Any:
    if not isinstance(node, yaml.ScalarNode) or node.tag not in tags:
        errors.error(_at(node), f"{what} must be {expected}, got {_kind(node)}", expected)
        return None
    try:
        return _CONSTRUCT.construct_object(node)
    except (ValueError, yaml.YAMLError):  # an integer of thousands of digits
        errors.error(_at(node), f"{what}: this number is too large", expected)
        return None


def _kind(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    kinds = {
        INT: "the number",
        STR: "the text",
        BOOL: "the truth value",
        "tag:yaml.org,2002:float": "the decimal number",
        "tag:yaml.org,2002:null": "nothing",
    }
    if node.tag == "tag:yaml.org,2002:null":
        return "nothing"
    shown = str(node.value)
    shown = shown if len(shown) <= 40 else shown[:37] + "..."
    return f"{kinds.get(node.tag, 'the value')} '{shown}'"
