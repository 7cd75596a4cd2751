"""Hidden program for algorithm_words_by_length: the words of the sentence ordered from shortest to longest, words of one length keeping their order, joined by single spaces.

Input: a sentence; 0 to 40 characters: letters of either case and single spaces between words, no space at either end.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def words_by_length(s):
    """The words sorted by length (a stable sort)."""
    s = _sentence(s, 40, LETTERS)
    if not s:
        return ""
    return " ".join(sorted(s.split(" "), key=len))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x


def _sentence(x, max_len, letters):
    """Return x when it is words of letters separated by single spaces, at most max_len characters."""
    x = _string(x, max_len, letters + " ")
    if x and not all(x.split(" ")):
        raise ValueError("words must be separated by single spaces, with no space at either end")
    return x
