"""Hidden program for algorithm_count_words: number of whitespace-separated words in s.

Input: string; at most 40 characters.
Invalid input raises ValueError.
"""


def count_words(s):
    """Number of whitespace-separated words in s."""
    s = _string(s, 40, None)
    return len(s.split())


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
