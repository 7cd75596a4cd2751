"""Hidden program for algorithm_reverse_long_words: the sentence with every word of five or more letters spelt backwards.

Input: a sentence of lowercase words separated by single spaces; 0 to 40 characters.
Invalid input raises ValueError.
"""


def reverse_long_words(s):
    """The sentence with every word of five or more letters reversed."""
    s = _string(s, 40, "abcdefghijklmnopqrstuvwxyz ")
    return " ".join(w[::-1] if len(w) >= 5 else w for w in _words(s))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x


def _words(s):
    """Return the words of s when it is words separated by single spaces (or empty)."""
    words = s.split(" ") if s else []
    if any(not w for w in words):
        raise ValueError("words must be separated by single spaces, with none at either end")
    return words
