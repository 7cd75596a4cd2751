"""Hidden program for algorithm_reverse_words: the words of s (split on whitespace) in reverse order, joined by single spaces.

Input: string; at most 40 characters.
Invalid input raises ValueError.
"""


def reverse_words(s):
    """The words of s (split on whitespace) in reverse order, joined by single spaces."""
    s = _string(s, 40, None)
    return ' '.join(reversed(s.split()))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
