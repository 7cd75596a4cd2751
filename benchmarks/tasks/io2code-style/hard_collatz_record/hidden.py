"""Hidden program for hard_collatz_record: the n between a and b inclusive (in either order) with the most Collatz steps to reach 1; the smallest such n on ties.

Input: pair of integers [a, b]; two integers between 1 and 300.
Invalid input raises ValueError.
"""


def collatz_record(pair):
    """The n between a and b inclusive (in either order) with the most Collatz steps to reach 1; the smallest such n on ties."""
    a, b = _pair(pair, 1, 300)
    lo, hi = min(a, b), max(a, b)
    return max(range(lo, hi + 1), key=lambda n: (_steps(n), -n))


def _steps(n):
    """Collatz steps from n down to 1."""
    count = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        count += 1
    return count


def _pair(x, lo, hi):
    """Return x as (a, b) when it is a list of two integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected a pair [a, b]")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"both members must be integers in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
