"""Hidden program for algorithm_map_characters: the text with every character found in source replaced by the character of target at the same position, and every other character unchanged.

Input: [text, source, target]: a text and two strings of the same length; text 0 to 30 characters of lowercase letters and spaces; source and target 0 to 8 lowercase letters each, of equal length, with no letter twice in source.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def map_characters(query):
    """Translate the characters of a text through a table given by two strings."""
    text, source, target = _args(query, 3, "[text, source, target]")
    text = _string(text, 30, LETTERS + " ")
    source = _string(source, 8, LETTERS)
    target = _string(target, 8, LETTERS)
    if len(source) != len(target):
        raise ValueError("source and target must have the same length")
    if len(set(source)) != len(source):
        raise ValueError("a letter occurs twice in source")
    out = ""
    for c in text:
        i = source.find(c)
        out += target[i] if i >= 0 else c
    return out


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
