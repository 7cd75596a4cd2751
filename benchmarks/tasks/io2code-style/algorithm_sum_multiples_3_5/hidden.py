"""Hidden program for algorithm_sum_multiples_3_5: sum of the natural numbers below n that are multiples of 3 or 5.

Input: integer; one integer between 0 and 2000.
Invalid input raises ValueError.
"""


def sum_multiples_3_5(n):
    """Sum of the natural numbers below n that are multiples of 3 or 5."""
    n = _int(n, 0, 2000)
    return sum(k for k in range(n) if k % 3 == 0 or k % 5 == 0)


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
