"""Hidden program for algorithm_weighted_char_checksum: the sum of (i + 1) * code of the i-th character over the string (i from 0), modulo 97.

Input: a string of letters and digits; 0 to 20 characters.
Invalid input raises ValueError.
"""


ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def weighted_checksum(s):
    """The position-weighted sum of the character codes, modulo 97."""
    s = _string(s, 20, ALNUM)
    total = 0
    for i, c in enumerate(s):
        total += (i + 1) * ord(c)
    return total % 97


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
