"""Hidden program for base_pair_bonus_score: the word's score read from left to right: a letter followed by the same letter makes a pair worth 3 points and uses up both letters; any other letter is worth 1.

Input: a word; 0 to 20 lowercase letters.
Invalid input raises ValueError.
"""

def pair_score(s):
    """Score a word where doubled letters earn a bonus."""
    s = _string(s, 20, "abcdefghijklmnopqrstuvwxyz")
    score = 0
    i = 0
    while i < len(s):
        if i + 1 < len(s) and s[i + 1] == s[i]:
            score += 3
            i += 2
        else:
            score += 1
            i += 1
    return score


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
