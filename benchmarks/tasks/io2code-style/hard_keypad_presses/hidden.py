"""Hidden program for hard_keypad_presses: how many key presses the message takes on an old phone keypad whose keys hold abc, def, ghi, jkl, mno, pqrs, tuv and wxyz: a letter takes as many presses as its place on its key (a 1, b 2, c 3, s 4, ...), a space takes 1.

Input: a text message; 0 to 30 characters: lowercase letters and spaces.
Invalid input raises ValueError.
"""

KEYS = ["abc", "def", "ghi", "jkl", "mno", "pqrs", "tuv", "wxyz"]


def presses(s):
    """Key presses needed to type the text by multi-tap."""
    s = _string(s, 30, "abcdefghijklmnopqrstuvwxyz ")
    total = 0
    for c in s:
        if c == " ":
            total += 1
            continue
        for key in KEYS:
            if c in key:
                total += key.index(c) + 1
    return total


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
