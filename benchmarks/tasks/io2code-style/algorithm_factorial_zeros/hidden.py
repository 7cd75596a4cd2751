"""Hidden program for algorithm_factorial_zeros: number of trailing zeros of n!.

Input: integer; one integer between 0 and 10000.
Invalid input raises ValueError.
"""


def factorial_trailing_zeros(n):
    """Number of trailing zeros of n!."""
    n = _int(n, 0, 10000)
    count = 0
    p = 5
    while p <= n:
        count += n // p
        p *= 5
    return count


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
