"""Hidden program for hard_word_frequencies: how often each word occurs, as an object word -> count, where words are runs of letters compared in lower case.

Input: string; at most 50 characters: letters, digits, spaces and .,!?-'.
Invalid input raises ValueError.
"""


def word_frequencies(s):
    """How often each word occurs, as an object word -> count, where words are runs of letters compared in lower case."""
    s = _string(s, 50, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?-'")
    counts = {}
    word = ''
    for c in s.lower() + ' ':
        if c.isalpha():
            word += c
        elif word:
            counts[word] = counts.get(word, 0) + 1
            word = ''
    return dict(sorted(counts.items()))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
