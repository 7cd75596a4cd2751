"""Hidden program for algorithm_strip_vowels_count: the pair [the text without its vowels a, e, i, o, u of either case, the number of vowels removed].

Input: a text; 0 to 30 characters: letters, digits, spaces and the punctuation . , ! ?.
Invalid input raises ValueError.
"""

ALLOWED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?"


def strip_vowels(s):
    """Remove the vowels and count them."""
    s = _string(s, 30, ALLOWED)
    kept = ""
    removed = 0
    for c in s:
        if c in "aeiouAEIOU":
            removed += 1
        else:
            kept += c
    return [kept, removed]


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
