"""Hidden program for algorithm_longest_word_info: [the longest word, its length, its index among the words] where words are separated by spaces and the first of equally long words wins; ["", 0, -1] when there is no word.

Input: a sentence; 0 to 40 characters: lowercase letters and spaces.
Invalid input raises ValueError.
"""

def longest_word_info(s):
    """Describe the longest word: itself, its length and where it is."""
    s = _string(s, 40, "abcdefghijklmnopqrstuvwxyz ")
    best, index = "", -1
    for i, word in enumerate(s.split()):
        if len(word) > len(best):
            best, index = word, i
    return [best, len(best), index]


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
