"""Hidden program for algorithm_digital_root: repeated digit sum of n until one digit remains.

Input: integer; one integer between 0 and 1000000000.
Invalid input raises ValueError.
"""


def digital_root(n):
    """Repeated digit sum of n until one digit remains."""
    n = _int(n, 0, 1000000000)
    while n >= 10:
        n = sum(int(c) for c in str(n))
    return n


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
