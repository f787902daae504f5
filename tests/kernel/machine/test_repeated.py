"""A piece's whole path as one move (`repeated`) on the kernel's machine gives the Python
engine's answers (the same states, in the same order, so the same solution, counts and
reachable states): one-cell pieces and blocks, steps and slides, a condition asked of every
arrangement walked from, safety rules, costs and `search any`; and Klotski's fewest moves,
a block's whole path a move, are the plain solver's."""

from __future__ import annotations

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.kernel import installed
from puzint.runner import kernel_unfit, load, search
from puzint.search import Limits
from puzint.search.result import SOLVED, SearchResult

from tests.conftest import SPECS, compiled_from
from tests.kernel.machine.test_blocks import TRAYS
from tests.plain import klotski

pytestmark = pytest.mark.skipif(not installed(), reason="numba is not installed")

TOKENS = """
puzzle "tokens"
board grid 3 x 4
piece A a
piece B b
start:
    A B _ _
    _ A _ B
    _ _ _ _
goal:
    ? ? ? ?
    ? ? ? ?
    B ? ? A
move move: MODE ?p along orthogonal repeated
"""


def answer(result: SearchResult) -> tuple[object, ...]:
    return (
        result.status,
        result.states,
        result.length,
        result.cost,
        result.count,
        result.reachable,
        result.path,
    )


def both(compiled: CompiledPuzzle, count: bool = False, reach: bool = False, mode: str | None = None) -> SearchResult:
    assert kernel_unfit(compiled, count, reach, "auto", mode) is None
    python = search(compiled, count=count, reach=reach, mode=mode, engine="python", limits=Limits())
    kernel = search(compiled, count=count, reach=reach, mode=mode, engine="compiled", limits=Limits())
    assert kernel.method == python.method + ", compiled"
    assert answer(kernel) == answer(python)
    return kernel


QUESTIONS = [(False, False, None), (True, False, None), (False, True, None), (False, False, "any")]


@pytest.mark.parametrize("form", ["step", "slide"])
@pytest.mark.parametrize(("count", "reach", "mode"), QUESTIONS)
def test_one_cell_pieces_walk_alike(form: str, count: bool, reach: bool, mode: str | None) -> None:
    result = both(compiled_from(TOKENS.replace("MODE", form)), count, reach, mode)
    assert result.status == SOLVED


@pytest.mark.parametrize("form", ["step", "slide"])
@pytest.mark.parametrize(("count", "reach", "mode"), QUESTIONS)
def test_blocks_walk_alike(form: str, count: bool, reach: bool, mode: str | None) -> None:
    text = TRAYS.replace("MODE ?p along orthogonal", f"{form} ?p along orthogonal repeated")
    assert both(compiled_from(text), count, reach, mode).status == SOLVED


@pytest.mark.parametrize("condition", ["?p.row < 3", "not (first(?p, left) is a)"])
def test_the_condition_is_asked_where_the_piece_is_on_its_path(condition: str) -> None:
    """Pieces move on only from the top two rows (a path ends once it reaches the third), or
    with no A to their left in the arrangement they are walked from (where they started
    is empty then)."""
    text = TOKENS.replace("MODE ?p along orthogonal repeated", f"step ?p along orthogonal repeated if {condition}")
    assert both(compiled_from(text), count=True).status == SOLVED
    blocks = TRAYS.replace("MODE ?p along orthogonal", "step ?p along orthogonal repeated if ?p.row < 3")
    assert both(compiled_from(blocks), reach=True).status == SOLVED


def test_safety_rules_hold_at_every_arrangement() -> None:
    """No two A side by side: a path may not pass such an arrangement."""
    text = TOKENS.replace("MODE", "step") + "safe: no a x: some d in orthogonal: first(x, d) is a\n"
    python = search(compiled_from(TOKENS.replace("MODE", "step")), reach=True, engine="python")
    result = both(compiled_from(text), reach=True)
    assert result.reachable is not None and python.reachable is not None and result.reachable < python.reachable


def test_a_path_costs_what_its_move_costs_from_where_it_starts() -> None:
    text = TOKENS.replace("MODE", "step") + "search cheapest\n"
    costed = text.replace("orthogonal repeated", "orthogonal repeated cost ?p.row + 1")
    assert both(compiled_from(costed)).cost is not None
    assert both(compiled_from(costed), count=True).count is not None


@pytest.mark.slow  # the plain solver takes most of a minute
def test_klotski_s_fewest_moves_are_the_plain_solver_s() -> None:
    compiled = load(SPECS / "klotski.puz", {"metric": "pieces"})
    result = search(compiled, engine="compiled")
    assert (result.engine, result.length) == ("compiled", klotski.fewest_moves(pieces=True))
