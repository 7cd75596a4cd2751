"""Hidden program for base_sum_of_squares_upto: 1*1 + 2*2 + ... + n*n (0 for n = 0).

Input: non-negative integer n; n from 0 to 200.
Invalid input raises ValueError.
"""


def sum_of_squares(n):
    """1*1 + 2*2 + ... + n*n."""
    n = _int(n, 0, 200)
    return sum(i * i for i in range(1, n + 1))


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
