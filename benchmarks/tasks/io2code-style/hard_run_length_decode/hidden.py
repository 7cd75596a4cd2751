"""Hidden program for hard_run_length_decode: the expansion of a run-length code: each letter followed by its count (1 to 9).

Input: string; at most 20 characters: pairs of a letter and a count digit 1 to 9.
Invalid input raises ValueError.
"""


def run_length_decode(s):
    """The expansion of a run-length code: each letter followed by its count (1 to 9)."""
    s = _string(s, 20, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ123456789')
    if len(s) % 2:
        raise ValueError('expected letter-count pairs')
    out = ''
    for i in range(0, len(s), 2):
        letter, count = s[i], s[i + 1]
        if not letter.isalpha() or count not in '123456789':
            raise ValueError(f'bad pair {s[i:i + 2]!r}')
        out += letter * int(count)
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
