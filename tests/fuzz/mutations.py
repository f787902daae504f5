"""Seeded mutations of a text, as a person's slips would make them: characters and lines
deleted, duplicated, swapped, cut short; stray characters; and grammar-aware replacements of
tokens (a keyword for another, a name for a number, a number for a huge or negative one)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

TOKEN = re.compile(r'"[^"\n]*"|\?[A-Za-z_]\w*|[A-Za-z_]\w*|\d+|\.\.\.?|->|<->|[<>=!]=|\s+|.', re.S)

KEYWORDS = [
    "puzzle",
    "about",
    "param",
    "require",
    "if",
    "else",
    "board",
    "line",
    "ring",
    "grid",
    "places",
    "graph",
    "link",
    "direction",
    "shape",
    "neighbourhood",
    "piece",
    "pieces",
    "group",
    "per",
    "kind",
    "drawn",
    "block",
    "start",
    "goal",
    "when",
    "at",
    "move",
    "along",
    "until",
    "slide",
    "step",
    "jump",
    "carry",
    "in",
    "with",
    "only",
    "take",
    "put",
    "from",
    "to",
    "advance",
    "by",
    "set",
    "toggle",
    "cost",
    "safe",
    "everywhere",
    "loads",
    "every",
    "some",
    "no",
    "count",
    "sum",
    "min",
    "max",
    "abs",
    "here",
    "is",
    "empty",
    "not",
    "and",
    "or",
    "true",
    "false",
    "symmetry",
    "mirror",
    "rotate",
    "complement",
    "search",
    "shortest",
    "cheapest",
    "all",
    "any",
    "reach",
    "show",
    "board",
    "banks",
    "ladder",
    "circle",
    "heuristic",
    "cursor",
    "hand",
    "counter",
    "carrier",
    "stack",
    "top",
    "next",
    "cell",
    "ray",
    "row",
    "col",
]
STRAYS = ["(", ")", "[", "]", '"', "#", ":", ",", "?", "_", "*", "\t", "    ", "\n", "é", "\ufeff", "\x00", "…", "0"]
NUMBERS = ["0", "-1", "1", "99999999999999999999", "4096", "65536", "2147483648", "1" + "0" * 30]


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def _words(parts: list[str]) -> list[int]:
    return [i for i, t in enumerate(parts) if t.strip()]


def delete_char(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text))
    return text[:i] + text[i + 1 :]


def insert_stray(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text) + 1)
    return text[:i] + rng.choice(STRAYS) + text[i:]


def truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text))]


def delete_line(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    del lines[rng.randrange(len(lines))]
    return "".join(lines)


def duplicate_line(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    i = rng.randrange(len(lines))
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return "".join(lines)


def swap_lines(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


def delete_token(text: str, rng: random.Random) -> str:
    parts = tokens(text)
    words = _words(parts)
    del parts[rng.choice(words)]
    return "".join(parts)


def duplicate_token(text: str, rng: random.Random) -> str:
    parts = tokens(text)
    i = rng.choice(_words(parts))
    parts.insert(i, parts[i] + " ")
    return "".join(parts)


def swap_tokens(text: str, rng: random.Random) -> str:
    parts = tokens(text)
    words = _words(parts)
    i, j = rng.choice(words), rng.choice(words)
    parts[i], parts[j] = parts[j], parts[i]
    return "".join(parts)


def replace_token(text: str, rng: random.Random) -> str:
    """A token replaced by another that the grammar knows, or by one of the same spec."""
    parts = tokens(text)
    words = _words(parts)
    i = rng.choice(words)
    pool = [parts[j] for j in words]
    if parts[i].isdigit():
        parts[i] = rng.choice(NUMBERS)
    else:
        parts[i] = rng.choice(KEYWORDS) if rng.random() < 0.6 else rng.choice(pool)
    return "".join(parts)


def misspell(text: str, rng: random.Random) -> str:
    """A word of two letters or more with two of its letters swapped, or one dropped."""
    parts = tokens(text)
    words = [i for i in _words(parts) if parts[i].isalpha() and len(parts[i]) > 2]
    if not words:
        return text
    i = rng.choice(words)
    w = parts[i]
    k = rng.randrange(len(w) - 1)
    parts[i] = w[:k] + w[k + 1] + w[k] + w[k + 2 :] if rng.random() < 0.5 else w[:k] + w[k + 1 :]
    return "".join(parts)


MUTATIONS: list[Callable[[str, random.Random], str]] = [
    delete_char,
    insert_stray,
    truncate,
    delete_line,
    duplicate_line,
    swap_lines,
    delete_token,
    duplicate_token,
    swap_tokens,
    replace_token,
    misspell,
]


def mutate(text: str, rng: random.Random) -> tuple[str, str]:
    """One to three mutations in a row; returns the text and their names."""
    names = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        if not text:
            break
        mutation = rng.choice(MUTATIONS)
        text = mutation(text, rng)
        names.append(mutation.__name__)
    return text, "+".join(names)
