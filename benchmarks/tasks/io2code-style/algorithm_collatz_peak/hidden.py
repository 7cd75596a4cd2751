"""Hidden program for algorithm_collatz_peak: the largest value reached by the Collatz sequence (n -> n/2 when even, 3n+1 when odd) started at n, n itself included.

Input: starting value n; a positive integer up to 10000.
Invalid input raises ValueError.
"""


def collatz_peak(n):
    """The largest value the Collatz sequence from n reaches."""
    n = _int(n, 1, 10000)
    peak = n
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        peak = max(peak, n)
    return peak


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
