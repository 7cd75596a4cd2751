"""Hidden program for hard_words_per_sentence: the number of words in each sentence, in order, where words are runs of letters and a sentence ends at ., ! or ? or at the end of the text (stretches without a word are no sentence).

Input: a short text; 0 to 60 characters: letters, spaces and the punctuation . , ! ?.
Invalid input raises ValueError.
"""

ALLOWED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,!?"


def words_per_sentence(s):
    """How many words each sentence of the text has."""
    s = _string(s, 60, ALLOWED)
    counts = []
    words = 0
    in_word = False
    for c in s + ".":
        if c.isalpha():
            if not in_word:
                words += 1
            in_word = True
            continue
        in_word = False
        if c in ".!?" and words > 0:
            counts.append(words)
            words = 0
    return counts


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
