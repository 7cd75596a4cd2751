"""Hidden program for base_compare_lengths: -1 when s is shorter than t, 1 when it is longer, 0 when both have the same length.

Input: [s, t]: two strings; each string 0 to 49 printable characters.
Invalid input raises ValueError.
"""


PRINTABLE = "".join(chr(c) for c in range(32, 127))


def compare_lengths(strings):
    """-1, 0 or 1 as s is shorter than, as long as or longer than t."""
    if not isinstance(strings, list) or len(strings) != 2:
        raise ValueError("expected two strings [s, t]")
    s, t = (_string(x, 49, PRINTABLE) for x in strings)
    return (len(s) > len(t)) - (len(s) < len(t))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
