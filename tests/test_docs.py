"""The docs show specs that work: every spec block of docs/language.md (a code block that
starts with `puzzle "`) parses, elaborates and compiles, and the catalogue's blocks are the
shipped specs (same statements, comments and `about` lines aside)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from puzint.compiler import compile_puzzle
from puzint.language.elaborate import elaborate
from puzint.language.parser import parse

ROOT = Path(__file__).resolve().parent.parent
LANGUAGE = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
BLOCKS = [b for b in re.findall(r"```\n(.*?)```", LANGUAGE, re.S) if b.startswith('puzzle "')]
SHIPPED = re.findall(r"^### .*?`specs/(\w+)\.puz`.*?\n\n```\n(.*?)```", LANGUAGE, re.S | re.M)


def statements(text: str) -> list[str]:
    lines = [line.split("#")[0].rstrip() for line in text.splitlines()]
    return [" ".join(line.split()) for line in lines if line.strip() and not line.startswith("about ")]


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0][8:-1] for b in BLOCKS])
def test_every_spec_in_the_language_docs_compiles(block: str) -> None:
    compile_puzzle(elaborate(parse(block, "docs.puz", folder=ROOT / "specs")))  # level files: the catalogue's


@pytest.mark.parametrize(("name", "block"), SHIPPED, ids=[name for name, _ in SHIPPED])
def test_the_catalogue_in_the_docs_is_the_shipped_specs(name: str, block: str) -> None:
    shipped = statements((ROOT / "specs" / f"{name}.puz").read_text(encoding="utf-8"))
    shown = statements(block)
    missing = [line for line in shown if line not in shipped]
    assert not missing, f"docs/language.md shows lines that specs/{name}.puz does not have: {missing}"


def test_there_are_spec_blocks_to_check() -> None:
    assert len(BLOCKS) >= 17 and len(SHIPPED) >= 12
