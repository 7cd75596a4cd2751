"""Hidden program for algorithm_next_power_of_two: the smallest power of two that is at least n.

Input: integer; one integer between 0 and 100000.
Invalid input raises ValueError.
"""


def next_power_of_two(n):
    """The smallest power of two that is at least n."""
    n = _int(n, 0, 100000)
    p = 1
    while p < n:
        p *= 2
    return p


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
