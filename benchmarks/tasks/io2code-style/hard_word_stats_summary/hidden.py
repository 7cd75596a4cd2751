"""Hidden program for hard_word_stats_summary: a summary "W words, L letters, longest: X" where words are runs of letters, L counts all letters and X is the first of the longest words ("-" when there is no word).

Input: a sentence; 0 to 40 characters: letters, spaces and the punctuation . , ! ?.
Invalid input raises ValueError.
"""


ALLOWED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,!?"


def word_stats(s):
    """'W words, L letters, longest: X' for the runs of letters in s."""
    s = _string(s, 40, ALLOWED)
    words, word = [], ""
    for c in s + " ":
        if c.isalpha():
            word += c
        elif word:
            words.append(word)
            word = ""
    longest = "-"
    for w in words:
        if longest == "-" or len(w) > len(longest):
            longest = w
    letters = sum(len(w) for w in words)
    return f"{len(words)} words, {letters} letters, longest: {longest}"


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
