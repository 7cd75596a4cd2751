"""Hidden program for algorithm_collatz_steps: number of Collatz steps (n -> n/2 or 3n+1) until n reaches 1.

Input: integer; one integer between 1 and 10000.
Invalid input raises ValueError.
"""


def collatz_steps(n):
    """Number of Collatz steps (n -> n/2 or 3n+1) until n reaches 1."""
    n = _int(n, 1, 10000)
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
