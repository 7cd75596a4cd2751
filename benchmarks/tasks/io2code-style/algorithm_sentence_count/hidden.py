"""Hidden program for algorithm_sentence_count: the number of sentences: stretches of text holding at least one letter, each ended by ., ! or ? or by the end of the text.

Input: a short text; 0 to 60 characters: letters, spaces and the punctuation . , ! ?.
Invalid input raises ValueError.
"""

ALLOWED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,!?"


def sentence_count(s):
    """Count the sentences of a text."""
    s = _string(s, 60, ALLOWED)
    count = 0
    has_letter = False
    for c in s:
        if c.isalpha():
            has_letter = True
        elif c in ".!?" and has_letter:
            count += 1
            has_letter = False
    if has_letter:
        count += 1
    return count


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
