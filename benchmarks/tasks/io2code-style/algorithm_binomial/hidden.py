"""Hidden program for algorithm_binomial: the binomial coefficient C(a, b), zero when b > a.

Input: pair of integers [a, b]; two integers between 0 and 30.
Invalid input raises ValueError.
"""

import math


def binomial(pair):
    """The binomial coefficient C(a, b), zero when b > a."""
    a, b = _pair(pair, 0, 30)
    if b > a:
        return 0
    return math.comb(a, b)


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
