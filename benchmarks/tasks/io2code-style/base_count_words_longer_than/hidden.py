"""Hidden program for base_count_words_longer_than: how many words of the text (separated by spaces) have more than n letters.

Input: [text, n]: a text and a length; text 0 to 50 characters of lowercase letters and spaces (words may be separated by several spaces); n from 0 to 10.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyz "


def count_longer(query):
    """The number of words longer than n letters."""
    text, n = _args(query, 2, "[text, n]")
    text = _string(text, 50, LETTERS)
    n = _int(n, 0, 10)
    count = 0
    for word in text.split():
        if len(word) > n:
            count += 1
    return count


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x


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
