"""Hidden program for base_shout_long_words: the sentence with every word of more than four letters in upper case and the other words unchanged.

Input: a sentence; 0 to 40 characters: lowercase letters and single spaces between words, no space at either end.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def shout_long_words(s):
    """Long words in capitals, short words as they are."""
    s = _sentence(s, 40, LETTERS)
    out = []
    for word in s.split(" ") if s else []:
        if len(word) > 4:
            out.append(word.upper())
        else:
            out.append(word)
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


def _sentence(x, max_len, letters):
    """Return x when it is words of letters separated by single spaces, at most max_len characters."""
    x = _string(x, max_len, letters + " ")
    if x and not all(x.split(" ")):
        raise ValueError("words must be separated by single spaces, with no space at either end")
    return x
