"""Hidden program for algorithm_multiples_of7_between: how many multiples of 7 lie between a and b inclusive (in either order).

Input: pair of integers [a, b]; two integers between -100 and 100.
Invalid input raises ValueError.
"""


def multiples_of7_between(pair):
    """How many multiples of 7 lie between a and b inclusive (in either order)."""
    a, b = _pair(pair, -100, 100)
    lo, hi = min(a, b), max(a, b)
    return sum(1 for k in range(lo, hi + 1) if k % 7 == 0)


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
