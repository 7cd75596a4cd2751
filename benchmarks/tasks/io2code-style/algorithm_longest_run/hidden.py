"""Hidden program for algorithm_longest_run: length of the longest run of one repeated character.

Input: string; at most 30 characters.
Invalid input raises ValueError.
"""


def longest_run(s):
    """Length of the longest run of one repeated character."""
    s = _string(s, 30, None)
    best = run = 0
    for i, c in enumerate(s):
        run = run + 1 if i and s[i - 1] == c else 1
        best = max(best, run)
    return best


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
