"""Hidden program for base_size_word: "small" when n is below 10, "large" when n is 100 or more, and the empty string otherwise.

Input: integer; one integer between -1000 and 1000.
Invalid input raises ValueError.
"""

def size_word(n):
    """A word for the size of n: small, large, or nothing in between."""
    n = _int(n, -1000, 1000)
    if n < 10:
        return "small"
    if n >= 100:
        return "large"
    return ""


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
