"""The parser tables shipped beside the grammar: up to date, equal to a freshly built parser,
never code. lark's pickle cache in the shared temporary directory is never read."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from puzint.language.indenter import PuzIndenter
from puzint.language.levels import quote_levels
from puzint.language.tables import TABLES_FILE, build, fingerprint, from_tables, grammar_text

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "grammar" / TABLES_FILE
SPECS = sorted((ROOT / "specs").glob("*.puz")) + sorted((ROOT / "docs" / "catalogue").glob("*.puz"))


def test_shipped_tables_are_built_from_this_grammar() -> None:
    stored = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert stored["built_from"]["grammar_sha256"] == fingerprint(grammar_text())["grammar_sha256"], (
        "grammar/puz.lark changed: run  python -m puzint.language.tables"
    )


def test_tables_parse_every_spec_like_a_freshly_built_parser() -> None:
    grammar = grammar_text()
    loaded = from_tables(SHIPPED.read_text(encoding="utf-8"), grammar, PuzIndenter())
    if fingerprint(grammar)["lark"] != json.loads(SHIPPED.read_text())["built_from"]["lark"]:
        pytest.skip("the tables were built with another lark version: the parser is built from the grammar")
    assert loaded is not None
    fresh = build(grammar, PuzIndenter())
    for path in SPECS:
        text = quote_levels(path.read_text(encoding="utf-8"))  # as `parse` hands a spec to lark
        assert loaded.parse(text) == fresh.parse(text), path.name


@pytest.mark.parametrize(
    "raw",
    ["", "not json", "[1, 2]", '{"built_from": {}, "tables": []}', SHIPPED.read_text()[:5000]],
    ids=["empty", "garbage", "list", "stale", "truncated"],
)
def test_a_stale_or_damaged_table_file_is_not_used(raw: str) -> None:
    assert from_tables(raw, grammar_text(), PuzIndenter()) is None


def test_tables_from_another_grammar_are_not_used() -> None:
    raw = SHIPPED.read_text(encoding="utf-8")
    assert from_tables(raw, grammar_text() + "\n// changed\n", PuzIndenter()) is None


PLANT = """
import os, sys
from lark import Lark
from puzint.language.indenter import PuzIndenter
from puzint.language.levels import quote_levels
from puzint.language.tables import OPTIONS, grammar_text
# what puzint did before: lark's cache=True writes <tempdir>/.lark_cache_<user>_<hash>_<py>.tmp
Lark(grammar_text(), postlex=PuzIndenter(), cache=True, **OPTIONS)
print([n for n in os.listdir(sys.argv[1]) if n.startswith(".lark_cache")][0])
"""


class _Plant:
    """Unpickling this calls open(marker, "w"): the proof that a planted file was loaded."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.marker, "w"))


def test_a_pickle_planted_where_lark_caches_is_never_loaded(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path), "TEMP": str(tmp_path), "TMP": str(tmp_path)}
    made = subprocess.run([sys.executable, "-c", PLANT, str(tmp_path)], env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    cache = tmp_path / made.stdout.strip()
    header = cache.read_bytes().split(b"\n", 1)[0]
    marker = tmp_path / "planted-code-ran"
    cache.write_bytes(header + b"\n" + pickle.dumps(_Plant(str(marker))))
    subprocess.run([sys.executable, "-c", PLANT, str(tmp_path)], env=env, capture_output=True)
    assert marker.exists(), "lark's cache=True (the old way) runs the planted file: the exploit is real"
    marker.unlink()
    cache.write_bytes(header + b"\n" + pickle.dumps(_Plant(str(marker))))  # lark rebuilt it: plant again
    run = subprocess.run(
        [sys.executable, "-m", "puzint", "run", str(ROOT / "specs" / "frog.puz")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "solved in 15 moves" in run.stdout
    assert not marker.exists()
