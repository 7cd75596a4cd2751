"""Hidden program for base_first_and_last_word: the first and the last word of the sentence (words are separated by spaces), as a pair; ["", ""] when it has no word.

Input: a sentence; 0 to 40 characters: letters of either case and spaces.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ "


def first_and_last(s):
    """The first and the last word."""
    s = _string(s, 40, LETTERS)
    words = s.split()
    if not words:
        return ["", ""]
    return [words[0], words[-1]]


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
