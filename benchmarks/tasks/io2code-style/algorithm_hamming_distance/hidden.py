"""Hidden program for algorithm_hamming_distance: number of bit positions in which a and b differ.

Input: pair of integers [a, b]; two integers between 0 and 4095.
Invalid input raises ValueError.
"""


def hamming_distance(pair):
    """Number of bit positions in which a and b differ."""
    a, b = _pair(pair, 0, 4095)
    return bin(a ^ b).count('1')


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
