"""Hidden program for algorithm_is_palindrome_alnum: whether s reads the same backwards when only letters and digits are kept, ignoring case.

Input: string; at most 40 printable ASCII characters.
Invalid input raises ValueError.
"""


def is_palindrome_alnum(s):
    """Whether s reads the same backwards when only letters and digits are kept, ignoring case."""
    s = _string(s, 40, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?-':;")
    kept = [c.lower() for c in s if c.isalnum()]
    return kept == kept[::-1]


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
