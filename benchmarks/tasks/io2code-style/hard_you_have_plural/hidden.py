"""Hidden program for hard_you_have_plural: "You have N NOUN." with the noun in the plural unless N is 1 and "no" for a count of 0; the plural adds "es" after s, x, ch or sh, turns a y after a consonant into "ies", and adds "s" otherwise.

Input: [n, noun]: a count and a singular English noun; n from 0 to 1000; noun 1 to 12 lowercase letters.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def you_have(query):
    """A sentence telling how many of the noun you have."""
    n, noun = _args(query, 2, "[n, noun]")
    n = _int(n, 0, 1000)
    noun = _string(noun, 12, LETTERS)
    if not noun:
        raise ValueError("the noun must not be empty")
    if n == 1:
        return "You have 1 " + noun + "."
    if noun.endswith(("s", "x", "ch", "sh")):
        plural = noun + "es"
    elif len(noun) >= 2 and noun[-1] == "y" and noun[-2] not in "aeiou":
        plural = noun[:-1] + "ies"
    else:
        plural = noun + "s"
    count = "no" if n == 0 else str(n)
    return "You have " + count + " " + plural + "."


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
