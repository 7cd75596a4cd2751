"""Hidden program for hard_pig_latin: every word in Pig Latin: a word starting with a vowel (a, e, i, o, u) gets "way" appended; otherwise its leading consonants move to the end followed by "ay" (y counts as a consonant).

Input: lowercase words separated by single spaces; 0 to 40 characters.
Invalid input raises ValueError.
"""


def pig_latin(s):
    """Every word in Pig Latin."""
    s = _string(s, 40, "abcdefghijklmnopqrstuvwxyz ")
    out = []
    for w in _words(s):
        if w[0] in "aeiou":
            out.append(w + "way")
            continue
        i = 0
        while i < len(w) and w[i] not in "aeiou":
            i += 1
        out.append(w[i:] + w[:i] + "ay")
    return " ".join(out)


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x


def _words(s):
    """Return the words of s when it is words separated by single spaces (or empty)."""
    words = s.split(" ") if s else []
    if any(not w for w in words):
        raise ValueError("words must be separated by single spaces, with none at either end")
    return words
