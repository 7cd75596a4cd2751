"""Hidden program for hard_decode_ways: the number of ways to read the digits as letters with 1 = A, ..., 26 = Z, every letter taking one or two digits (a 0 can only be the second digit of 10 or 20); 1 for the empty string.

Input: a string of digits; 0 to 20 characters, each 0-9.
Invalid input raises ValueError.
"""


def decode_ways(s):
    """The number of ways to read the digits as letters 1..26."""
    if not isinstance(s, str) or len(s) > 20 or any(c not in "0123456789" for c in s):
        raise ValueError("expected a string of at most 20 digits")
    prev, cur = 1, 1  # ways for s[:i-1] and s[:i]
    for i, c in enumerate(s):
        ways = cur if c != "0" else 0
        if i > 0 and 10 <= int(s[i - 1:i + 1]) <= 26:
            ways += prev
        prev, cur = cur, ways
    return cur
