"""Hidden program for base_char_code_checksum: the sum of the character codes modulo 256.

Input: a string; 0 to 30 printable ASCII characters.
Invalid input raises ValueError.
"""


PRINTABLE = "".join(chr(c) for c in range(32, 127))


def char_code_checksum(s):
    """The sum of the character codes modulo 256."""
    s = _string(s, 30, PRINTABLE)
    return sum(ord(c) for c in s) % 256


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
