"""Hidden program for algorithm_isbn10_valid: whether the code is a valid ISBN-10: the digits weighted 10, 9, ..., 1 from the left (X standing for 10) add up to a multiple of 11.

Input: an ISBN-10 code; exactly 10 characters: nine digits, then a digit or X.
Invalid input raises ValueError.
"""

def isbn10(s):
    """Check the weighted digit sum of an ISBN-10."""
    if not isinstance(s, str) or len(s) != 10:
        raise ValueError("expected a string of 10 characters")
    if not s[:9].isdigit() or not s[:9].isascii() or s[9] not in "0123456789X":
        raise ValueError("expected nine digits and then a digit or X")
    total = 0
    for i, c in enumerate(s):
        value = 10 if c == "X" else int(c)
        total += (10 - i) * value
    return total % 11 == 0
