"""Hidden program for algorithm_luhn_check: whether the number passes the Luhn check: going from the rightmost digit, every second digit is doubled (9 subtracted when that gives more than 9), and the sum of all digits so obtained is a multiple of 10.

Input: a card number; 1 to 16 digits.
Invalid input raises ValueError.
"""

def luhn(s):
    """The Luhn checksum test of a card number."""
    s = _string(s, 16, "0123456789")
    if not s:
        raise ValueError("expected at least one digit")
    total = 0
    for i, c in enumerate(reversed(s)):
        d = int(c)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
