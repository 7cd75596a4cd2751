"""Hidden program for algorithm_is_prime: whether n is a prime number.

Input: integer; one integer between -100 and 5000.
Invalid input raises ValueError.
"""


def is_prime(n):
    """Whether n is a prime number."""
    n = _int(n, -100, 5000)
    if n < 2:
        return False
    d = 2
    while d * d <= n:
        if n % d == 0:
            return False
        d += 1
    return True


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
