"""Hidden program for algorithm_capitalize_words: every space-separated word with its first character upper-cased and the rest lower-cased; spaces kept as they are.

Input: string; at most 40 characters.
Invalid input raises ValueError.
"""


def capitalize_words(s):
    """Every space-separated word with its first character upper-cased and the rest lower-cased; spaces kept as they are."""
    s = _string(s, 40, None)
    return ' '.join(w[:1].upper() + w[1:].lower() for w in s.split(' '))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
