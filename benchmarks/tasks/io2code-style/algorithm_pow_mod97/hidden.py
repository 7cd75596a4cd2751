"""Hidden program for algorithm_pow_mod97: a to the power b, modulo 97.

Input: pair of integers [a, b]; two integers between 0 and 200.
Invalid input raises ValueError.
"""


def pow_mod97(pair):
    """A to the power b, modulo 97."""
    a, b = _pair(pair, 0, 200)
    result = 1
    for _ in range(b):
        result = result * a % 97
    return result


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
