"""Hidden program for algorithm_reverse_digits: the decimal digits of n reversed, keeping the sign (leading zeros vanish).

Input: integer; one integer between -100000 and 100000.
Invalid input raises ValueError.
"""


def reverse_digits(n):
    """The decimal digits of n reversed, keeping the sign (leading zeros vanish)."""
    n = _int(n, -100000, 100000)
    sign = -1 if n < 0 else 1
    return sign * int(str(abs(n))[::-1])


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
