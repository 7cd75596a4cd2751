"""Hidden program for algorithm_count_divisors: number of positive divisors of n.

Input: integer; one integer between 1 and 5000.
Invalid input raises ValueError.
"""


def count_divisors(n):
    """Number of positive divisors of n."""
    n = _int(n, 1, 5000)
    count = 0
    d = 1
    while d * d <= n:
        if n % d == 0:
            count += 1 if d * d == n else 2
        d += 1
    return count


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
