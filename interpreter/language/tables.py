"""The parser's LALR tables, built from the grammar once and shipped inside the package as JSON.

Building the parser from grammar/puz.lark takes about 0.35 s, a large share of a run's start-up.
lark's own cure, `cache=True`, pickles the built parser into the shared temporary directory
under a predictable name and `pickle.load`s it on the next start, so another local user could
plant a file there that runs code as whoever starts puzint next. Instead the tables are written
next to the grammar as plain JSON (tuples and non-text keys tagged), which loading can only
ever turn into data: a tampered file can at worst make the tables wrong, never run code. The
file records the grammar's hash and lark's version; when either differs the parser is built
from the grammar instead, so a stale file costs time, never correctness.

Regenerate after changing the grammar:  python -m puzint.language.tables
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

GRAMMAR_PACKAGE = "puzint.grammar"
GRAMMAR_FILE = "puz.lark"
TABLES_FILE = "puz.tables.json"
FORMAT = 1

# lark's options for this grammar; the post-lexer (indentation) is code, so it is passed in.
OPTIONS: dict[str, Any] = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}


def grammar_text() -> str:
    return resources.files(GRAMMAR_PACKAGE).joinpath(GRAMMAR_FILE).read_text(encoding="utf-8")


def fingerprint(grammar: str) -> dict[str, Any]:
    """What the tables were built from: a file that says anything else is not used."""
    return {
        "format": FORMAT,
        "grammar_sha256": hashlib.sha256(grammar.encode("utf-8")).hexdigest(),
        "lark": lark.__version__,
        "options": OPTIONS,
    }


def build(grammar: str, postlex: Any) -> Lark:
    return Lark(grammar, postlex=postlex, **OPTIONS)


def load_or_build(postlex: Any) -> Lark:
    """The parser from the shipped tables when they match this grammar and lark, else built."""
    grammar = grammar_text()
    try:
        raw = resources.files(GRAMMAR_PACKAGE).joinpath(TABLES_FILE).read_text(encoding="utf-8")
    except OSError:
        raw = ""
    return from_tables(raw, grammar, postlex) or build(grammar, postlex)


def from_tables(raw: str, grammar: str, postlex: Any) -> Lark | None:
    """The parser stored in `raw`, or None when it was built from something else or is damaged."""
    try:
        stored = json.loads(raw, object_hook=_untag)
        if not isinstance(stored, dict) or stored.get("built_from") != fingerprint(grammar):
            return None
        data, memo = stored["tables"]
        parser: Lark = Lark._load_from_dict(data, memo, postlex=postlex)
        return parser
    except Exception:  # damaged in any way: the caller builds the parser from the grammar
        return None


def dump(parser: Lark, grammar: str) -> str:
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"]["postlex"] = None
    return json.dumps({"built_from": fingerprint(grammar), "tables": _tag((data, memo))}, separators=(",", ":"))


def _tag(value: Any) -> Any:
    """JSON keeps lists and text-keyed objects only: tuples and other keys are tagged."""
    if isinstance(value, tuple):
        return {"(": [_tag(v) for v in value]}
    if isinstance(value, list):
        return [_tag(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and not ({"(", "{"} & value.keys()):
            return {k: _tag(v) for k, v in value.items()}
        return {"{": [[_tag(k), _tag(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot store a {type(value).__name__} in the parser tables")


def _untag(obj: dict[str, Any]) -> Any:
    if len(obj) == 1:
        if "(" in obj:
            return tuple(obj["("])
        if "{" in obj:
            return {_hashable(k): v for k, v in obj["{"]}
    return obj


def _hashable(key: Any) -> Any:
    return tuple(_hashable(k) for k in key) if isinstance(key, list) else key


def write(postlex_factory: Callable[[], Any], target: Path) -> None:
    grammar = grammar_text()
    target.write_text(dump(build(grammar, postlex_factory()), grammar) + "\n", encoding="utf-8")


if __name__ == "__main__":
    from .indenter import PuzIndenter

    out = Path(str(resources.files(GRAMMAR_PACKAGE).joinpath(TABLES_FILE)))
    write(PuzIndenter, out)
    print(f"wrote {out}")
