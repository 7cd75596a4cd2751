"""Hidden program for algorithm_lcm_pair: least common multiple of a and b.

Input: pair of integers [a, b]; two integers between 1 and 300.
Invalid input raises ValueError.
"""

import math


def lcm_pair(pair):
    """Least common multiple of a and b."""
    a, b = _pair(pair, 1, 300)
    return a * b // math.gcd(a, b)


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
