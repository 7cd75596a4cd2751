"""Hidden program for base_acronym: the first letter of every space-separated word, upper-cased and joined together.

Input: a phrase; 0 to 40 characters: letters and spaces.
Invalid input raises ValueError.
"""


LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ "


def acronym(phrase):
    """The upper-cased first letters of the words, joined."""
    phrase = _string(phrase, 40, LETTERS)
    return "".join(w[0].upper() for w in phrase.split())


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
