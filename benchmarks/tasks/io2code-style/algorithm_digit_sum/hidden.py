"""Hidden program for algorithm_digit_sum: sum of the decimal digits of |n|.

Input: integer; one integer between -1000000 and 1000000.
Invalid input raises ValueError.
"""


def digit_sum(n):
    """Sum of the decimal digits of |n|."""
    n = _int(n, -1000000, 1000000)
    return sum(int(c) for c in str(abs(n)))


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
