"""Hidden program for algorithm_climb_stairs_1_2: the number of ways to climb n stairs taking 1 or 2 steps at a time (1 way for n = 0), modulo 1000000007.

Input: number of stairs n; an integer from 0 to 1000.
Invalid input raises ValueError.
"""


def climb_stairs(n):
    """The number of ways to climb n stairs with steps of 1 or 2, modulo 10**9 + 7."""
    n = _int(n, 0, 1000)
    a, b = 1, 1
    for _ in range(n):
        a, b = b, (a + b) % 1000000007
    return a


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
