"""Hidden program for algorithm_climb_stairs_1_2_3: the last three digits (the value modulo 1000) of the number of ordered ways to climb n stairs with steps of 1, 2 or 3 (1 way for n = 0).

Input: n (stairs); 0 to 500.
Invalid input raises ValueError.
"""


def climb_stairs3(n):
    """The number of ordered ways to climb n stairs with steps of 1, 2 or 3, modulo 1000."""
    n = _int(n, 0, 500)
    ways = [1, 1, 2]
    for i in range(3, n + 1):
        ways.append((ways[i - 1] + ways[i - 2] + ways[i - 3]) % 1000)
    return ways[n]


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
