"""Hidden program for algorithm_count_overlapping: how many times pattern occurs in s, overlapping occurrences included.

Input: [s, pattern]: two strings of lowercase letters; s 0 to 24 letters and pattern 1 to 4 letters, both from a-c.
Invalid input raises ValueError.
"""


def count_overlapping(query):
    """How many times pattern occurs in s, overlaps included."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [s, pattern]")
    s = _string(query[0], 24, "abc")
    pattern = _string(query[1], 4, "abc")
    if not pattern:
        raise ValueError("the pattern must not be empty")
    return sum(1 for i in range(len(s) - len(pattern) + 1) if s.startswith(pattern, i))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
