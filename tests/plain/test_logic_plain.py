"""The plain logic-puzzle solvers reproduce the verified answers."""

import pytest

from tests.plain import cryptarithm, latin_square, magic_square, pentominoes, sudoku

HARD = "800000000003600000070090200050007000000045700000100030001000068008500010090000400"
HARD_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def test_sudoku_unique_solution():
    assert sudoku.solutions(HARD) == [HARD_SOLUTION]
    assert sudoku.count(HARD.replace("0", ".")) == 1


def test_sudoku_solution_keeps_givens():
    assert all(g in "0" + s for g, s in zip(HARD, HARD_SOLUTION, strict=True))


def test_sudoku_limit_and_clash():
    assert len(sudoku.solutions("0" * 81, limit=3)) == 3
    assert sudoku.count("11" + "0" * 79) == 0


def test_shidoku_empty_288():
    assert sudoku.count("0" * 16, size=4, box=(2, 2)) == 288


def test_latin_squares():
    assert latin_square.count(4) == 576
    assert latin_square.count(5) == 161_280
    assert sum(1 for _ in latin_square.squares(4)) == 576


def test_latin_squares_are_latin():
    for sq in latin_square.squares(4):
        assert all(sorted(row) == [1, 2, 3, 4] for row in sq)
        assert all(sorted(col) == [1, 2, 3, 4] for col in zip(*sq, strict=True))


def test_send_more_money():
    sols = cryptarithm.solutions(["SEND", "MORE"], "MONEY")
    assert sols == [{"S": 9, "E": 5, "N": 6, "D": 7, "M": 1, "O": 0, "R": 8, "Y": 2}]
    assert cryptarithm.check(["SEND", "MORE"], "MONEY", sols[0])


def test_pentominoes_3x20():
    tilings = list(pentominoes.tilings(3, 20))
    assert len(tilings) == 8
    assert all(pentominoes.check(3, 20, t) for t in tilings)
    assert len(set(tilings)) == 8
    assert pentominoes.count(3, 20) == 8
    assert pentominoes.count_up_to_symmetry(3, 20) == 2


def test_pentominoes_wrong_area():
    assert pentominoes.count(5, 11) == 0


@pytest.mark.slow
def test_pentominoes_5x12():
    assert pentominoes.count_up_to_symmetry(5, 12) == 1010


@pytest.mark.slow
def test_pentominoes_6x10():
    assert pentominoes.count_up_to_symmetry(6, 10) == 2339


@pytest.mark.slow
def test_magic_square_4x4():
    assert magic_square.count4() == (7040, 880)


def test_the_killer_shidoku_of_the_catalogue_has_one_solution() -> None:
    from tests.plain import regions

    cages = ["aabb", "cdde", "cfge", "hfgg"]
    sums = {"a": 3, "b": 7, "c": 5, "d": 5, "e": 5, "f": 4, "g": 7, "h": 4}
    in_boxes = set(regions.solutions(4, ["aabb", "aabb", "ccdd", "ccdd"]))
    assert len(in_boxes) == 288  # every Shidoku
    assert in_boxes & set(regions.solutions(4, cages, sums)) == {"1234341221434321"}


def test_a_jigsaw_latin_square_of_four_regions() -> None:
    from tests.plain import regions

    assert len(regions.solutions(4, ["aaab", "cabb", "ccdb", "cddd"])) == 96


def test_the_catalogue_s_hidato_and_numbrix_have_one_solution_each() -> None:
    from tests.plain import number_paths

    (hidato,) = number_paths.solutions(number_paths.HIDATO, diagonal=True)
    assert hidato[0][:5] == [32, 33, 35, 36, 37]
    (numbrix,) = number_paths.solutions(number_paths.NUMBRIX, diagonal=False)
    assert numbrix[0] == [49, 50, 51, 52, 53, 54, 75, 76, 81]
    assert number_paths.count(["1 _ _", "_ _ _", "_ _ 9"], diagonal=True) == 30  # a small board's king's paths


def test_the_zebra_puzzle_has_one_answer_the_japanese_owns_the_zebra() -> None:
    from tests.plain import zebra

    (answer,) = zebra.solutions()
    owner = next(n for n in zebra.GROUPS[1] if answer[n] == answer["zebra"])
    drinker = next(n for n in zebra.GROUPS[1] if answer[n] == answer["water"])
    assert (owner, drinker) == ("japanese", "norwegian")


def test_the_catalogue_s_futoshiki_has_one_solution() -> None:
    from tests.plain import futoshiki

    signs = [
        ((1, 2), ">", (1, 3)), ((2, 2), ">", (2, 3)), ((3, 1), "<", (3, 2)), ((4, 1), ">", (4, 2)),
        ((4, 3), "<", (4, 4)), ((1, 2), ">", (2, 2)), ((2, 1), ">", (3, 1)), ((3, 1), "<", (4, 1)),
        ((4, 1), ">", (5, 1)), ((3, 3), ">", (4, 3)), ((3, 5), "<", (4, 5)), ((4, 5), "<", (5, 5)),
    ]  # fmt: skip
    found = futoshiki.solutions(5, {(3, 4): 5, (5, 2): 4}, signs)
    assert found == [((3, 5, 2, 1, 4), (4, 2, 1, 3, 5), (2, 3, 4, 5, 1), (5, 1, 3, 4, 2), (1, 4, 5, 2, 3))]
    assert len(futoshiki.solutions(4, {}, [])) == 576  # no sign, no given: every Latin square of side 4


@pytest.mark.slow
def test_the_magic_hexagon_is_one_up_to_its_twelve_symmetries() -> None:
    from tests.plain import magic_hexagon

    found = magic_hexagon.solutions()
    assert len(found) == 12 and len(magic_hexagon.classes(found)) == 1
