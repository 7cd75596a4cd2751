"""Hidden program for algorithm_censor_banned_words: the sentence with every word that equals a banned word, ignoring case, replaced by as many * as it has letters.

Input: [text, banned]: a sentence and a list of banned words; text 0 to 40 characters: letters of either case and single spaces between words, no space at either end; 0 to 4 banned words of 1 to 8 lowercase letters.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def censor(query):
    """Blank out the banned words of a sentence."""
    text, banned = _args(query, 2, "[text, banned]")
    text = _sentence(text, 40, LETTERS + LETTERS.upper())
    if not isinstance(banned, list) or len(banned) > 4:
        raise ValueError("expected a list of at most 4 banned words")
    for word in banned:
        if not _string(word, 8, LETTERS):
            raise ValueError("a banned word must not be empty")
    out = []
    for word in text.split(" ") if text else []:
        if word.lower() in banned:
            out.append("*" * len(word))
        else:
            out.append(word)
    return " ".join(out)


def _args(x, n, what):
    """Return x when it is a list of n arguments."""
    if not isinstance(x, list) or len(x) != n:
        raise ValueError(f"expected {what}")
    return x


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
