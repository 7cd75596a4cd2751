"""Hidden program for hard_anagram_phrases: whether the letters of t are a rearrangement of the letters of s, ignoring spaces and case.

Input: [s, t]: two phrases; each 0 to 30 characters: letters of either case and spaces.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ "


def anagrams(query):
    """Whether the two phrases use exactly the same letters."""
    s, t = _args(query, 2, "[s, t]")
    s = _string(s, 30, LETTERS)
    t = _string(t, 30, LETTERS)
    return sorted(s.replace(" ", "").lower()) == sorted(t.replace(" ", "").lower())


def _args(x, n, what):
    """Return x when it is a list of n arguments."""
    if not isinstance(x, list) or len(x) != n:
        raise ValueError(f"expected {what}")
    return x


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
