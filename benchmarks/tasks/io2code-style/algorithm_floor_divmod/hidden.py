"""Hidden program for algorithm_floor_divmod: [a // b, a mod b] with floor division (the remainder takes the sign of b).

Input: pair of integers [a, b]; two integers between -100 and 100; b is not 0.
Invalid input raises ValueError.
"""


def floor_divmod(pair):
    """[a // b, a mod b] with floor division (the remainder takes the sign of b)."""
    a, b = _pair(pair, -100, 100)
    if b == 0:
        raise ValueError("b must not be 0")
    return [a // b, a % b]


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
