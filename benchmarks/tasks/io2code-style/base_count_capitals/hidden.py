"""Hidden program for base_count_capitals: the number of capital letters A to Z in the text.

Input: a text; 0 to 40 printable ASCII characters.
Invalid input raises ValueError.
"""

PRINTABLE = "".join(chr(c) for c in range(32, 127))


def count_capitals(s):
    """How many upper-case letters the text has."""
    s = _string(s, 40, PRINTABLE)
    count = 0
    for c in s:
        if "A" <= c <= "Z":
            count += 1
    return count


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
