"""Hidden program for base_powers_of_two_below: the powers of two 1, 2, 4, 8, ... that are smaller than n.

Input: integer; one integer between 0 and 100000.
Invalid input raises ValueError.
"""

def powers_below(n):
    """Every power of two below n, smallest first."""
    n = _int(n, 0, 100000)
    out = []
    p = 1
    while p < n:
        out.append(p)
        p *= 2
    return out


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
