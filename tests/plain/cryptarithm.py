"""Word-addition cryptarithms such as SEND + MORE = MONEY, column-wise search.

Rules implemented:
- Puzzle: addends w1 + w2 + ... = total, each word a string of letters,
  read as a base-10 number with its first letter the most significant digit.
- Each letter stands for one digit 0-9; different letters stand for
  different digits (so at most 10 distinct letters).
- The first letter of every word (addends and total) is not 0, whatever the
  word's length.
- solutions(addends, total) returns every assignment that makes the sum
  true, as dicts letter -> digit (keys in order of first appearance,
  addends first), sorted by the digits of that key order.
- Search: column by column from the right, with the carry. In each column the
  addends' letters not yet assigned are tried in turn; the total's letter is
  then forced to (column sum + carry) mod 10 and checked. After the leftmost
  column of the total the carry must be 0. A total shorter than an addend has
  no solution (the addend's leading letter is not 0).
"""


def solutions(addends: list[str], total: str) -> list[dict[str, int]]:
    words = [*addends, total]
    order = []
    for w in words:
        for ch in w:
            if ch not in order:
                order.append(ch)
    if len(order) > 10:
        return []
    if any(len(w) > len(total) for w in addends):
        return []
    leading = {w[0] for w in words if w}
    width = len(total)
    # columns[k] = addend letters in column k (k = 0 is the units column)
    columns = [[w[-1 - k] for w in addends if k < len(w)] for k in range(width)]
    digit = {}
    used = [False] * 10
    out = []

    def assign(ch, d):
        digit[ch] = d
        used[d] = True

    def unassign(ch):
        used[digit.pop(ch)] = False

    def column(k, j, acc):
        # acc = carry into column k + digits of columns[k][:j]
        if k == width:
            if acc == 0:
                out.append({ch: digit[ch] for ch in order})
            return
        letters = columns[k]
        if j < len(letters):
            ch = letters[j]
            if ch in digit:
                column(k, j + 1, acc + digit[ch])
                return
            for d in range(1 if ch in leading else 0, 10):
                if not used[d]:
                    assign(ch, d)
                    column(k, j + 1, acc + d)
                    unassign(ch)
            return
        d = acc % 10
        ch = total[-1 - k]
        if ch in digit:
            if digit[ch] == d:
                column(k + 1, 0, acc // 10)
            return
        if used[d] or (d == 0 and ch in leading):
            return
        assign(ch, d)
        column(k + 1, 0, acc // 10)
        unassign(ch)

    column(0, 0, 0)
    out.sort(key=lambda s: [s[ch] for ch in order])
    return out


def _value(word, sol):
    v = 0
    for ch in word:
        v = v * 10 + sol[ch]
    return v


def best(addends, total, word, largest=True):
    """The solutions whose `word` reads as the largest number (the smallest, with
    largest=False), and that number: every solution is found, then the best kept."""
    sols = solutions(addends, total)
    if not sols:
        return None, []
    pick = max if largest else min
    top = pick(_value(word, s) for s in sols)
    return top, [s for s in sols if _value(word, s) == top]


def check(addends, total, sol):
    """True if sol satisfies every rule above (used by the tests)."""
    letters = set("".join(addends) + total)
    if set(sol) != letters or len(set(sol.values())) != len(sol):
        return False
    if any(sol[w[0]] == 0 for w in [*addends, total]):
        return False
    return sum(_value(w, sol) for w in addends) == _value(total, sol)


if __name__ == "__main__":
    import time

    cases = [
        (["SEND", "MORE"], "MONEY"),
        (["BASE", "BALL"], "GAMES"),
        (["TWO", "TWO"], "FOUR"),
        (["CROSS", "ROADS"], "DANGER"),
        (
            [
                "SO",
                "MANY",
                "MORE",
                "MEN",
                "SEEM",
                "TO",
                "SAY",
                "THAT",
                "THEY",
                "MAY",
                "SOON",
                "TRY",
                "TO",
                "STAY",
                "AT",
                "HOME",
                "SO",
                "AS",
                "TO",
                "SEE",
                "OR",
                "HEAR",
                "THE",
                "SAME",
                "ONE",
                "MAN",
                "TRY",
                "TO",
                "MEET",
                "THE",
                "TEAM",
                "ON",
                "THE",
                "MOON",
                "AS",
                "HE",
                "HAS",
                "AT",
                "THE",
                "OTHER",
                "TEN",
            ],
            "TESTS",
        ),
    ]
    top, kept = best(["SEND", "MOST"], "MONEY", "MONEY")
    every = solutions(["SEND", "MOST"], "MONEY")
    print(f"SEND + MOST = MONEY: {len(every)} solutions; largest MONEY = {top}, {len(kept)} solutions: {kept}")
    for addends, total in cases:
        t = time.perf_counter()
        sols = solutions(addends, total)
        dt = time.perf_counter() - t
        assert all(check(addends, total, s) for s in sols)
        name = " + ".join(addends) if len(addends) <= 4 else f"{len(addends)} words"
        shown = sols[0] if len(sols) == 1 else f"{sols[:1]}..."
        print(f"cryptarithm {name} = {total}: solutions={len(sols)} {shown} ({dt:.4f}s)")
