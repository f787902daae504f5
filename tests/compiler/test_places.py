"""Boards of places: carry moves, routes, safety rules on places and loads, explanations."""

from __future__ import annotations

import itertools

import pytest
from puzint.compiler import CompiledPuzzle
from puzint.compiler.families import CarryFamily
from puzint.errors import SpecError
from puzint.render.explain import rejections
from puzint.runner import search

from tests.conftest import SPECS, compiled_from

JEALOUS = (SPECS / "jealous_husbands.puz").read_text()


def places(text: str, **params: object) -> CompiledPuzzle:
    compiled = compiled_from(text, **params)
    assert compiled.puzzle.board is None and compiled.puzzle.places
    return compiled


def test_couples_are_generated_per_member_with_their_attribute() -> None:
    compiled = places(JEALOUS, couples=2)
    assert [p.symbol for p in compiled.puzzle.pieces] == ["H1", "H2", "W1", "W2"]
    assert compiled.puzzle.pieces[3].attribute("couple") == 2


def test_the_boat_load_is_checked_too() -> None:
    compiled = places(JEALOUS)
    loads = {r.pieces: r.where for r in rejections(compiled, compiled.start)}
    assert loads[("H1", "W2")] == "the boat"
    assert loads[("H1",)] == "left"  # W1 stays with H2 and H3, without H1
    assert ("W1",) not in loads  # the wives left behind keep their husbands


def test_interchangeable_pieces_are_not_told_apart() -> None:
    text = (SPECS / "missionaries.puz").read_text()
    compiled = places(text)
    successors = {state for state, _ in compiled.expand(compiled.start)}
    # one missionary and one cannibal, two cannibals, one cannibal (M alone or M M leave too few)
    assert len(successors) == 3


def test_routes_restrict_the_carrier() -> None:
    compiled = places(JEALOUS, couples=4, island="banks")
    island = [p.name for p in compiled.puzzle.places].index("island")
    (carry,) = compiled.families
    assert isinstance(carry, CarryFamily)
    assert carry.routes[0] == [island] and sorted(carry.routes[island]) == [0, 2]


@pytest.mark.parametrize(
    ("params", "length"),
    [
        ({}, 11),
        ({"couples": 4, "seats": 3}, 9),
        ({"couples": 4, "island": "any"}, 16),
        ({"couples": 4, "island": "banks"}, 26),
    ],
)
def test_catalogue_lengths(params: dict[str, object], length: int) -> None:
    assert search(places(JEALOUS, **params)).length == length


def test_four_couples_two_seats_is_a_proof_of_impossibility() -> None:
    result = search(places(JEALOUS, couples=4), reach=True)
    assert result.status == "no-solution" and result.reachable == 44 and result.states == 44


def test_with_requires_a_kind_aboard() -> None:
    compiled = places((SPECS / "farmer.puz").read_text())
    for _, move in compiled.expand(compiled.start):
        assert "F" in [name for name, _, _ in compiled.label(move, compiled.start).movers]


def test_only_limits_who_may_board() -> None:
    text = (SPECS / "farmer.puz").read_text().replace("with farmer", "only farmer")
    text = text.replace("farmer is here or not (wolf is here and goat is here)", "true")
    compiled = places(text.replace("farmer is here or not (goat is here and cabbage is here)", "true"))
    loads = {
        tuple(n for n, _, _ in compiled.label(m, compiled.start).movers) for _, m in compiled.expand(compiled.start)
    }
    assert loads == {("F",)}


def test_a_start_that_breaks_a_rule_is_an_error() -> None:
    text = (
        (SPECS / "farmer.puz").read_text().replace("start at left: everyone", "start at left: L G C\nstart at right: F")
    )
    with pytest.raises(SpecError) as err:
        places(text)
    assert err.value.diagnostics[0].message == "the start already breaks this safety rule (at left)"


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("every wife w here", "every widow w here", "unknown kind of piece 'widow'"),
        ("h.couple == w.couple", "h.family == w.couple", "no piece has the attribute 'family'"),
        ("h.couple == w.couple", "h == 3", "cannot compare a piece with a number"),
        ("carrier boat at left", "carrier boat at middle", "unknown place 'middle'"),
        ("carry 1..seats in boat", "carry 1..seats in raft", "unknown carrier 'raft'"),
        ("piece W wife per couple", "piece W wife per family", "unknown group 'family'"),
    ],
)
def test_mistakes_in_places_specs(old: str, new: str, message: str) -> None:
    assert old in JEALOUS
    with pytest.raises(SpecError) as err:
        places(JEALOUS.replace(old, new))
    assert message in [d.message for d in err.value.diagnostics]


def test_together_compares_where_pieces_are() -> None:
    text = (
        (SPECS / "farmer.puz")
        .read_text()
        .replace(
            "farmer is here or not (wolf is here and goat is here)",
            "together(farmer, goat) or not together(wolf, goat)",
        )
    )
    assert search(places(text)).length == 7


def test_a_safety_rule_sums_over_the_place_or_load_it_checks() -> None:
    family = "places left, right\npiece F father with weight = 80\npiece M mother with weight = 80\n"
    family += "piece C child with weight = 40\ncarrier boat at left\nstart at left: F M C C\ngoal at right: everyone\n"
    family += "move cross: carry 1..2 in boat\nsafe in loads: sum(p.weight for p in here) <= 80\n"
    result = search(compiled_from(family), count=True)
    assert (result.length, result.count) == (9, 2)  # the known 9 crossings, father or mother first


SUPPLY = """
param n = 3
board grid n x n
cursor at r1c1
pieces 1..n "numbers"
start at hand = (1..n) * n
goal when hand is empty
move place: take ?t from hand, put ?t at cursor, advance cursor by 1
"""


def test_a_supply_of_n_copies_of_each_number_is_written_with_parameters() -> None:
    compiled = compiled_from(SUPPLY)
    assert compiled.puzzle.start.places[0] == (3, 3, 3)  # the hand: three of each number
    result = search(compiled, count=True)
    assert (result.length, result.count) == (9, 362_880 // 6**3)  # 9! / (3!)^3 orders of the copies


def test_a_supply_too_long_is_refused() -> None:
    with pytest.raises(SpecError, match="this list would be 3,000,000 members long"):
        compiled_from(SUPPLY.replace("(1..n) * n", "(1..n) * 1000000"))


GUARDED = (
    "places left, island, right\npiece A adult with weight = 80\npiece C child with weight = 40\n"
    "piece D dog with weight = 20\ncarrier boat at left\nstart at left: A A C C D\ngoal at right: everyone\n"
    "move row: carry 0..3 in boat with adult if sum(p.weight for p in load) <= 160\n"
    "move swim: carry 0..1 in boat only dog\n"
    "safe in loads: sum(p.weight for p in here) <= 180\n"
    "safe in places: not (dog is here and some child is here) or some adult is here\n"
)

CARRIES = [
    pytest.param(JEALOUS, {"couples": 3}, id="jealous"),
    pytest.param(JEALOUS, {"couples": 4, "seats": 3, "island": "banks"}, id="jealous-island"),
    pytest.param((SPECS / "missionaries.puz").read_text(), {"m": 4, "seats": 3}, id="missionaries"),
    pytest.param((SPECS / "farmer.puz").read_text(), {}, id="farmer-with"),
    pytest.param((SPECS / "bridge_torch.puz").read_text(), {}, id="bridge-cost"),
    pytest.param(GUARDED, {}, id="two-carries-with-only-guard"),
]


@pytest.mark.parametrize(("text", "params"), CARRIES)
def test_the_moves_between_two_states_are_those_expand_gives(text: str, params: dict[str, object]) -> None:
    """`moves_to` (a kept path's moves named again) checks only the load the two states differ
    by: for every state met, it gives what filtering `expand` gives, for each successor, for
    the state itself and for states two crossings away."""
    compiled = places(text, **params)
    seen, frontier = {compiled.start}, [compiled.start]
    while frontier:
        state = frontier.pop()
        successors = compiled.expand(state)
        children = {child for child, _ in successors}
        farther = {grandchild for child in children for grandchild, _ in compiled.expand(child)}
        carries = [family for family in compiled.families if isinstance(family, CarryFamily)]
        unchecked = {new for family in carries for _, _, new, _ in family.candidates(state)}  # before any rule
        for after in children | farther | unchecked | {state}:
            assert compiled.moves_to(state, after) == [s for s in successors if s[0] == after]
        frontier.extend(children - seen)
        seen |= children
    assert len(seen) >= 10


@pytest.mark.parametrize(("text", "params"), [*CARRIES[2:], pytest.param(JEALOUS, {"couples": 2}, id="jealous")])
def test_a_carry_allows_the_loads_it_makes(text: str, params: dict[str, object]) -> None:
    """`allows` (a load told without making every load) against `loads`, for every place's
    contents and every load of up to two of each piece."""
    compiled = places(text, **params)
    for family in compiled.families:
        assert isinstance(family, CarryFamily)
        counts = [bytes(c) for c in itertools.product(range(3), repeat=family.npieces)]
        for bag in counts:
            made = {load for load, _ in family.loads(bag)}
            assert {load for load in counts if family.allows(bag, load)} == made
