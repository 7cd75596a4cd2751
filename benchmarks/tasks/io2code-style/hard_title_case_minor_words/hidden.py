"""Hidden program for hard_title_case_minor_words: the title in title case: every word lower-cased and then capitalised, except the minor words a, an, the, and, or, of, in, on and to, which stay lower case unless they are the first or the last word.

Input: a title: words of letters separated by single spaces; 0 to 50 characters, in any case.
Invalid input raises ValueError.
"""


MINOR = {"a", "an", "the", "and", "or", "of", "in", "on", "to"}
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ "


def title_case(title):
    """The title in title case, minor words lower case except at either end."""
    words = _words(_string(title, 50, LETTERS))
    out = []
    for i, w in enumerate(words):
        w = w.lower()
        if w in MINOR and 0 < i < len(words) - 1:
            out.append(w)
        else:
            out.append(w.capitalize())
    return " ".join(out)


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x


def _words(s):
    """Return the words of s when it is words separated by single spaces (or empty)."""
    words = s.split(" ") if s else []
    if any(not w for w in words):
        raise ValueError("words must be separated by single spaces, with none at either end")
    return words
