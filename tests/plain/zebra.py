"""The zebra puzzle (Life International, 1962): five houses in a row, each with one colour,
nation, drink, smoke and pet, no two houses sharing one; fourteen clues.

Rules implemented (houses numbered 1 to 5 from the left; "next to": the houses differ by 1):
 1. the Englishman lives in the red house;        2. the Spaniard owns the dog;
 3. coffee is drunk in the green house;            4. the Ukrainian drinks tea;
 5. the green house is just right of the ivory;    6. the Old Gold smoker owns snails;
 7. Kools are smoked in the yellow house;          8. milk is drunk in the middle house;
 9. the Norwegian lives in the first house;       10. the Chesterfield smoker lives next to the fox;
11. Kools are smoked next to the horse;           12. the Lucky Strike smoker drinks orange juice;
13. the Japanese smokes Parliaments;              14. the Norwegian lives next to the blue house.
solutions() lists every assignment as a dict name -> house, the names as the spec writes them.
Search: each group's permutations in turn, a clue checked as soon as its group is placed.
"""

from __future__ import annotations

from itertools import permutations

GROUPS = (
    ("red", "green", "ivory", "yellow", "blue"),
    ("english", "spaniard", "ukrainian", "norwegian", "japanese"),
    ("coffee", "tea", "milk", "orange_juice", "water"),
    ("old_gold", "kools", "chesterfield", "lucky_strike", "parliament"),
    ("dog", "snails", "fox", "horse", "zebra"),
)


def _next_to(a: int, b: int) -> bool:
    return abs(a - b) == 1


def solutions() -> list[dict[str, int]]:
    found: list[dict[str, int]] = []
    for colours in permutations(range(1, 6)):
        h = dict(zip(GROUPS[0], colours, strict=True))
        if h["green"] != h["ivory"] + 1:
            continue
        for nations in permutations(range(1, 6)):
            h.update(zip(GROUPS[1], nations, strict=True))
            if h["english"] != h["red"] or h["norwegian"] != 1 or not _next_to(h["norwegian"], h["blue"]):
                continue
            for drinks in permutations(range(1, 6)):
                h.update(zip(GROUPS[2], drinks, strict=True))
                if h["coffee"] != h["green"] or h["ukrainian"] != h["tea"] or h["milk"] != 3:
                    continue
                for smokes in permutations(range(1, 6)):
                    h.update(zip(GROUPS[3], smokes, strict=True))
                    if h["kools"] != h["yellow"] or h["lucky_strike"] != h["orange_juice"]:
                        continue
                    if h["japanese"] != h["parliament"]:
                        continue
                    for pets in permutations(range(1, 6)):
                        h.update(zip(GROUPS[4], pets, strict=True))
                        if h["spaniard"] != h["dog"] or h["old_gold"] != h["snails"]:
                            continue
                        if not (_next_to(h["chesterfield"], h["fox"]) and _next_to(h["kools"], h["horse"])):
                            continue
                        found.append(dict(h))
    return found
