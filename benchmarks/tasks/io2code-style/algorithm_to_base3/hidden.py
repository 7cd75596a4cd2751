"""Hidden program for algorithm_to_base3: n written in base 3 as a string, with a leading '-' when negative.

Input: integer; one integer between -3000 and 3000.
Invalid input raises ValueError.
"""


def to_base3(n):
    """N written in base 3 as a string, with a leading '-' when negative."""
    n = _int(n, -3000, 3000)
    if n == 0:
        return '0'
    sign, n = ('-', -n) if n < 0 else ('', n)
    digits = ''
    while n:
        digits = str(n % 3) + digits
        n //= 3
    return sign + digits


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
