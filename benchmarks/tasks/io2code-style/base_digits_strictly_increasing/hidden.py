"""Hidden program for base_digits_strictly_increasing: whether every digit of n is larger than the digit before it (numbers of one digit qualify).

Input: a non-negative integer; one integer between 0 and 999999999.
Invalid input raises ValueError.
"""

def increasing_digits(n):
    """Whether the decimal digits of n rise strictly from left to right."""
    n = _int(n, 0, 999999999)
    digits = str(n)
    for i in range(1, len(digits)):
        if digits[i] <= digits[i - 1]:
            return False
    return True


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
