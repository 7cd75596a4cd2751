"""Hidden program for base_phone_keypad_digits: the digits to dial for every character on a phone keypad (abc 2, def 3, ghi 4, jkl 5, mno 6, pqrs 7, tuv 8, wxyz 9, a space 0), as a string.

Input: a word or phrase; 0 to 20 characters: lowercase letters and spaces.
Invalid input raises ValueError.
"""

KEYS = {"abc": "2", "def": "3", "ghi": "4", "jkl": "5", "mno": "6", "pqrs": "7", "tuv": "8", "wxyz": "9", " ": "0"}


def keypad_digits(s):
    """Spell a text as the digits of a phone keypad."""
    s = _string(s, 20, "abcdefghijklmnopqrstuvwxyz ")
    out = ""
    for c in s:
        for letters, digit in KEYS.items():
            if c in letters:
                out += digit
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
