"""Hidden program for algorithm_gcd_pair: greatest common divisor of |a| and |b| (gcd(0, 0) = 0).

Input: pair of integers [a, b]; two integers between -1000 and 1000.
Invalid input raises ValueError.
"""


def gcd_pair(pair):
    """Greatest common divisor of |a| and |b| (gcd(0, 0) = 0)."""
    a, b = _pair(pair, -1000, 1000)
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
