"""Hidden program for base_valid_clock_time: whether the text is a time "HH:MM" with exactly two digits each, the hours from 00 to 23 and the minutes from 00 to 59.

Input: a text; 0 to 8 characters: digits and colons.
Invalid input raises ValueError.
"""

def valid_time(s):
    """Whether s is a 24-hour clock time HH:MM."""
    s = _string(s, 8, "0123456789:")
    if len(s) != 5 or s[2] != ":":
        return False
    hours, minutes = s[:2], s[3:]
    if not (hours.isdigit() and minutes.isdigit()):
        return False
    return int(hours) <= 23 and int(minutes) <= 59


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
