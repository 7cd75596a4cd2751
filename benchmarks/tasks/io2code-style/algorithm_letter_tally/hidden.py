"""Hidden program for algorithm_letter_tally: every letter that occurs, in alphabetical order, followed by how often it occurs, e.g. "banana" gives "a3b1n2".

Input: text; 0 to 30 characters: lowercase letters, spaces and the punctuation .,!?'.
Invalid input raises ValueError.
"""


def letter_tally(s):
    """Each letter present, alphabetically, followed by its count."""
    s = _string(s, 30, "abcdefghijklmnopqrstuvwxyz .,!?'")
    counts = {}
    for c in s:
        if c.isalpha():
            counts[c] = counts.get(c, 0) + 1
    return "".join(f"{c}{counts[c]}" for c in sorted(counts))


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
