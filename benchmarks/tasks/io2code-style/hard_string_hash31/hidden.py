"""Hidden program for hard_string_hash31: the hash h of the text where h starts at 0 and, for every character in order, becomes (h * 31 + the character's code) modulo 1000003.

Input: a text; 0 to 30 printable ASCII characters.
Invalid input raises ValueError.
"""

PRINTABLE = "".join(chr(c) for c in range(32, 127))


def hash31(s):
    """A polynomial hash of the character codes."""
    s = _string(s, 30, PRINTABLE)
    h = 0
    for c in s:
        h = (h * 31 + ord(c)) % 1000003
    return h


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
