"""Hidden program for algorithm_run_length_encode: run-length encoding: each run of a letter becomes the letter and the run length.

Input: string; at most 30 lowercase letters.
Invalid input raises ValueError.
"""


def run_length_encode(s):
    """Run-length encoding: each run of a letter becomes the letter and the run length."""
    s = _string(s, 30, 'abcdefghijklmnopqrstuvwxyz')
    out = ''
    i = 0
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        out += s[i] + str(j - i)
        i = j
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
