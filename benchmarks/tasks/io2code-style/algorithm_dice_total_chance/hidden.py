"""Hidden program for algorithm_dice_total_chance: the probability that n fair dice show the given total, counted over all 6**n outcomes and rounded to 4 decimals.

Input: [n, total]: a number of six-sided dice and a total; n from 1 to 4; total from 0 to 26.
Invalid input raises ValueError.
"""

def dice_chance(query):
    """Count the ways n dice can make the total, as a probability."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [n, total]")
    n = _int(query[0], 1, 4)
    total = _int(query[1], 0, 26)
    outcomes = [0]
    for _ in range(n):
        outcomes = [s + face for s in outcomes for face in range(1, 7)]
    hits = 0
    for s in outcomes:
        if s == total:
            hits += 1
    return round(hits / len(outcomes), 4)


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
