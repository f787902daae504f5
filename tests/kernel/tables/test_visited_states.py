"""The kernel keeps the states it has seen in one of three ways: a bitmap of every possible
state (few bits, no path counts), a hash table of every state found, or, where every move
can be undone, a hash table of the last three layers only. Each way must give the Python
engine's answers; each test here forces one way and checks it was the one taken."""

from __future__ import annotations

from typing import Any

import pytest
from puzint.compiler import CompiledPuzzle, compile_puzzle
from puzint.kernel import installed
from puzint.language.elaborate import elaborate
from puzint.language.parser import parse
from puzint.runner import load, search

from tests.conftest import SPECS

from ..test_same_answers import answer

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")


ONE_WAY_SWAPS = """
puzzle "one-way swaps"
board line 6
piece A a
piece B b
start A A A B B B
goal B B B A A A
move swap: A B -> B A along right
"""


def compiled_text(text: str) -> CompiledPuzzle:
    return compile_puzzle(elaborate(parse(text, "spec.puz")))


def test_only_puzzles_whose_every_move_can_be_undone_are_undirected() -> None:
    assert load(SPECS / "amida.puz").undirected  # a swap of neighbours undoes itself
    assert load(SPECS / "lights_out.puz").undirected  # so does a toggle
    assert load(SPECS / "eight_puzzle.puz").undirected
    assert not load(SPECS / "frog.puz").undirected  # frogs only go forwards
    assert not load(SPECS / "bishops.puz", {"attack": "false"}).undirected  # slides
    # the instance can be run backwards (`invertible`), but no move does it
    one_way = compiled_text(ONE_WAY_SWAPS)
    assert one_way.invertible and not one_way.undirected
    assert compiled_text(ONE_WAY_SWAPS.replace("along right", "along right, left")).undirected


CASES = [
    pytest.param("amida.puz", {"bottom": "HFBDAGEC"}, False, True, id="amida 8 lines reach"),
    pytest.param("amida.puz", {"bottom": "HFBDAGEC"}, True, False, id="amida 8 lines count"),
    pytest.param("knights.puz", {}, True, False, id="knights count"),
    pytest.param("frog.puz", {"n": "9"}, False, False, id="frog n=9 shortest"),
]
SMALL = [  # whose bitmap is small
    pytest.param("amida.puz", {"bottom": "GFBDAEC"}, False, True, id="amida 7 lines reach"),
    pytest.param("lights_out.puz", {"n": "4"}, False, True, id="lights out 4 x 4 reach"),
    pytest.param("frog.puz", {"n": "5"}, False, True, id="frog n=5 reach"),
]


@pytest.fixture
def rehashes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The first state held each time the kernel filled its table again."""
    from puzint.kernel.tables import core

    seen: list[int] = []
    plain = core.rehash

    def recorded(keys: Any, indices: Any, states: Any, lo: int, count: int) -> None:
        seen.append(lo)
        plain(keys, indices, states, lo, count)

    monkeypatch.setattr(core, "rehash", recorded)
    return seen


def both(
    spec: str, params: dict[str, str], count: bool, reach: bool, undirected: bool = True
) -> tuple[dict[str, Any], dict[str, Any]]:
    compiled = load(SPECS / spec, params)
    compiled.undirected = compiled.undirected and undirected
    method = "auto" if reach else "bfs"  # layer by layer from the start, counting too
    python = search(compiled, count=count, reach=reach, method=method, engine="python")
    kernel = search(compiled, count=count, reach=reach, method=method, engine="compiled")
    assert kernel.method.endswith(", compiled")
    return answer(python), answer(kernel)


@pytest.mark.parametrize(("spec", "params", "count", "reach"), CASES)
def test_a_table_of_every_state_answers_as_python_does(
    spec: str, params: dict[str, str], count: bool, reach: bool, monkeypatch: pytest.MonkeyPatch, rehashes: list[int]
) -> None:
    from puzint.kernel.searches import breadth_first as kernel_search

    monkeypatch.setattr(kernel_search, "DIRECT_BITS", 0)
    python, kernel = both(spec, params, count, reach, undirected=False)
    assert kernel == python
    assert len(rehashes) > 1 and set(rehashes) == {0}  # the table grew


@pytest.mark.parametrize(
    ("spec", "params", "count", "reach"), [c for c in CASES if "amida" in c.id or "knights" in c.id]
)
def test_a_table_of_the_last_three_layers_answers_as_python_does(
    spec: str, params: dict[str, str], count: bool, reach: bool, monkeypatch: pytest.MonkeyPatch, rehashes: list[int]
) -> None:
    from puzint.kernel.searches import breadth_first as kernel_search

    monkeypatch.setattr(kernel_search, "DIRECT_BITS", 0)
    python, kernel = both(spec, params, count, reach)
    assert kernel == python
    assert max(rehashes) > 0  # older layers were dropped


@pytest.mark.parametrize(("spec", "params", "count", "reach"), SMALL)
def test_a_bitmap_of_every_possible_state_answers_as_python_does(
    spec: str, params: dict[str, str], count: bool, reach: bool, rehashes: list[int]
) -> None:
    python, kernel = both(spec, params, count, reach)
    assert kernel == python
    assert not rehashes  # no table at all


def test_a_bitmap_only_where_it_is_small_beside_the_states_there_may_be(rehashes: list[int]) -> None:
    """Frog n=6 packs into 26 bits, an 8 MB bitmap, for at most 12,012 states: a table.
    Lights Out 4 x 4 packs into 16 bits: a bitmap of 8 KB."""
    search(load(SPECS / "frog.puz", {"n": "6"}), reach=True, engine="compiled")
    assert rehashes
    rehashes.clear()
    search(load(SPECS / "lights_out.puz", {"n": "4"}), reach=True, engine="compiled")
    assert not rehashes
