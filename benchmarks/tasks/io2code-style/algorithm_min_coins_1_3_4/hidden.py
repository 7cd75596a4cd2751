"""Hidden program for algorithm_min_coins_1_3_4: the fewest coins worth 1, 3 and 4 that add up to the amount.

Input: an amount; an integer from 0 to 500.
Invalid input raises ValueError.
"""


def min_coins(amount):
    """The fewest coins of 1, 3 and 4 summing to the amount."""
    amount = _int(amount, 0, 500)
    best = [0] + [amount + 1] * amount
    for a in range(1, amount + 1):
        best[a] = 1 + min(best[a - c] for c in (1, 3, 4) if c <= a)
    return best[amount]


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
