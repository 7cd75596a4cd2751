"""Hidden program for hard_wrap_to_width: the words of the text (split on spaces) filled into lines: each line takes as many further words, joined by single spaces, as fit within width characters; a word longer than width stands on a line of its own.

Input: [text, width]: a text and a line width; text 0 to 60 characters of lowercase letters and spaces; width from 1 to 20.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyz "


def wrap(query):
    """Greedy line filling of the words into lines of at most width characters."""
    text, width = _args(query, 2, "[text, width]")
    text = _string(text, 60, LETTERS)
    width = _int(width, 1, 20)
    lines = []
    line = ""
    for word in text.split():
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= width:
            line = line + " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x


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
