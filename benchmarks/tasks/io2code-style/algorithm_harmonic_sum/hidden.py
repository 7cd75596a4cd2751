"""Hidden program for algorithm_harmonic_sum: the sum 1 + 1/2 + 1/3 + ... + 1/n as a float, added from the first term on and not rounded (0.0 for n = 0).

Input: integer n; one integer between 0 and 1000.
Invalid input raises ValueError.
"""

def harmonic(n):
    """The n-th harmonic number, summed term by term."""
    n = _int(n, 0, 1000)
    total = 0.0
    for i in range(1, n + 1):
        total += 1 / i
    return total


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
