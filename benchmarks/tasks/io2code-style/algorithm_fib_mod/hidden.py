"""Hidden program for algorithm_fib_mod: the n-th Fibonacci number (F0 = 0, F1 = 1) modulo 1000.

Input: integer; one integer between 0 and 1000.
Invalid input raises ValueError.
"""


def fib_mod(n):
    """The n-th Fibonacci number (F0 = 0, F1 = 1) modulo 1000."""
    n = _int(n, 0, 1000)
    a, b = 0, 1
    for _ in range(n):
        a, b = b, (a + b) % 1000
    return a


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
