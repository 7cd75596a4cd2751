"""Hidden program for hard_most_frequent_word: [the most frequent word in lower case, how often it occurs] where words are runs of letters compared ignoring case and ties go to the word that occurs first; ["", 0] when there is no word.

Input: a text; 0 to 60 characters: letters, spaces and the punctuation . , ! ?.
Invalid input raises ValueError.
"""

ALLOWED = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ .,!?"


def most_frequent_word(s):
    """The commonest word and its count."""
    s = _string(s, 60, ALLOWED)
    words = []
    word = ""
    for c in s + " ":
        if c.isalpha():
            word += c.lower()
        elif word:
            words.append(word)
            word = ""
    best, best_count = "", 0
    for w in words:
        count = words.count(w)
        if count > best_count:
            best, best_count = w, count
    return [best, best_count]


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
