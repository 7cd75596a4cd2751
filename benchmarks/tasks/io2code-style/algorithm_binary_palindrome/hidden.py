"""Hidden program for algorithm_binary_palindrome: whether the binary form of n (no leading zeros) reads the same backwards.

Input: integer; one integer between 0 and 5000.
Invalid input raises ValueError.
"""


def binary_palindrome(n):
    """Whether the binary form of n (no leading zeros) reads the same backwards."""
    n = _int(n, 0, 5000)
    b = bin(n)[2:]
    return b == b[::-1]


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
