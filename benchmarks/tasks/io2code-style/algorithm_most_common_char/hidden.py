"""Hidden program for algorithm_most_common_char: the most frequent character of s; ties go to the smallest character; '' for the empty string.

Input: string; at most 30 characters.
Invalid input raises ValueError.
"""


def most_common_char(s):
    """The most frequent character of s; ties go to the smallest character; '' for the empty string."""
    s = _string(s, 30, None)
    if not s:
        return ''
    counts = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    return min(counts, key=lambda c: (-counts[c], c))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
