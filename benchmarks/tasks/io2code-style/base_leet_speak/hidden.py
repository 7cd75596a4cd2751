"""Hidden program for base_leet_speak: the text with a/A written 4, e/E 3, i/I 1, o/O 0, s/S 5 and t/T 7, every other character unchanged.

Input: a text; 0 to 30 characters: letters of either case and spaces.
Invalid input raises ValueError.
"""

TABLE = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ "


def leet(s):
    """Replace some letters by digits that look like them."""
    s = _string(s, 30, LETTERS)
    out = ""
    for c in s:
        out += TABLE.get(c.lower(), c)
    return out


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
