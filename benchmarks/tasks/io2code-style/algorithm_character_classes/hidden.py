"""Hidden program for algorithm_character_classes: four counts [letters, digits, spaces, other characters] of the text.

Input: a text; 0 to 40 printable ASCII characters.
Invalid input raises ValueError.
"""

PRINTABLE = "".join(chr(c) for c in range(32, 127))


def character_classes(s):
    """Count the letters, digits, spaces and the rest."""
    s = _string(s, 40, PRINTABLE)
    letters = digits = spaces = others = 0
    for c in s:
        if c.isalpha():
            letters += 1
        elif c.isdigit():
            digits += 1
        elif c == " ":
            spaces += 1
        else:
            others += 1
    return [letters, digits, spaces, others]


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
