"""Hidden program for algorithm_alphabet_value_sum: the sum of the letters' places in the alphabet (a or A is 1, b or B 2, ..., z or Z 26); spaces and hyphens count 0.

Input: a word or phrase; 0 to 30 characters: letters of either case, spaces and hyphens.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def alphabet_value(s):
    """Add up the alphabet positions of the letters."""
    s = _string(s, 30, LETTERS + LETTERS.upper() + " -")
    total = 0
    for c in s:
        if c.isalpha():
            total += ord(c.lower()) - ord("a") + 1
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
