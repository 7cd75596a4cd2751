def count_outcomes(a, b):
    ways = {0: 1}
    for _ in range(a):
        nxt = {}
        for s, w in ways.items():
            for face in range(1, 7):
                nxt[s + face] = nxt.get(s + face, 0) + w
        ways = nxt
    total = sum(ways.values())
    if total > 9007199254740992:
        raise ArithmeticError("too many outcomes")
    good = sum(w for s, w in ways.items() if s == b)
    return good / total


def solve(input_data):
    a, b = input_data
    return round(count_outcomes(a, b), 4)
