"""Hidden program for algorithm_heads_at_least: the probability of at least k heads in n tosses of a fair coin, found by counting the 2**n equally likely outcomes (not rounded).

Input: [n, k]: a number of coin tosses and a number of heads; n from 0 to 12; k from 0 to 12.
Invalid input raises ValueError.
"""

def heads_at_least(query):
    """Go through every sequence of tosses and count those with k heads or more."""
    n, k = _pair(query, 0, 12)
    good = 0
    for outcome in range(2 ** n):
        heads = 0
        for i in range(n):
            if outcome >> i & 1:
                heads += 1
        if heads >= k:
            good += 1
    return good / 2 ** n


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
