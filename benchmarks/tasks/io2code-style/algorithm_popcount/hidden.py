"""Hidden program for algorithm_popcount: number of one bits in the binary form of n.

Input: integer; one integer between 0 and 1000000.
Invalid input raises ValueError.
"""


def popcount(n):
    """Number of one bits in the binary form of n."""
    n = _int(n, 0, 1000000)
    return bin(n).count('1')


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
