"""Hidden program for algorithm_integer_kth_root: the largest integer r with r ** k <= n.

Input: pair [n, k]; n between 0 and 1000000, k between 1 and 6.
Invalid input raises ValueError.
"""


def integer_root(pair):
    """The largest integer r with r ** k <= n."""
    if not isinstance(pair, list) or len(pair) != 2:
        raise ValueError("expected a pair [n, k]")
    n = _int(pair[0], 0, 1000000)
    k = _int(pair[1], 1, 6)
    r = int(round(n ** (1 / k)))
    while r ** k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
