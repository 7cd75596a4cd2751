"""Hidden program for algorithm_caesar_shift3: every letter moved three places on in the alphabet (wrapping, keeping case); other characters unchanged.

Input: string; at most 40 characters.
Invalid input raises ValueError.
"""


def caesar_shift3(s):
    """Every letter moved three places on in the alphabet (wrapping, keeping case); other characters unchanged."""
    s = _string(s, 40, None)
    out = ''
    for c in s:
        if 'a' <= c <= 'z':
            out += chr((ord(c) - 97 + 3) % 26 + 97)
        elif 'A' <= c <= 'Z':
            out += chr((ord(c) - 65 + 3) % 26 + 65)
        else:
            out += c
    return out


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
