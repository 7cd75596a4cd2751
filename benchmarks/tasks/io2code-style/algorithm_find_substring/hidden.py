"""Hidden program for algorithm_find_substring: the index of the first occurrence of pattern in text, or -1; an empty pattern occurs at 0.

Input: a pair [text, pattern] of strings; text has 0 to 30 characters and pattern 0 to 5, all from a-d.
Invalid input raises ValueError.
"""


def find_substring(query):
    """The index of the first occurrence of pattern in text, or -1."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [text, pattern]")
    text = _string(query[0], 30, "abcd")
    pattern = _string(query[1], 5, "abcd")
    for i in range(len(text) - len(pattern) + 1):
        if text[i:i + len(pattern)] == pattern:
            return i
    return -1


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
