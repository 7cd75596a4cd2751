"""Hidden program for base_palindrome_mismatches: how many positions i in the first half hold a different letter from the position i places from the end, that is how many letters must change to make the word a palindrome.

Input: a word; 0 to 20 lowercase letters.
Invalid input raises ValueError.
"""

def mismatches(s):
    """Compare the word with itself read backwards, half way."""
    s = _string(s, 20, "abcdefghijklmnopqrstuvwxyz")
    count = 0
    for i in range(len(s) // 2):
        if s[i] != s[len(s) - 1 - i]:
            count += 1
    return count


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
