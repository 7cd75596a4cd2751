"""Hidden program for algorithm_scrabble_score: the Scrabble score of the word (A E I O U L N S T R score 1, D G 2, B C M P 3, F H V W Y 4, K 5, J X 8, Q Z 10).

Input: a word; 0 to 15 letters, either case.
Invalid input raises ValueError.
"""


TABLE = (("aeioulnstr", 1), ("dg", 2), ("bcmp", 3), ("fhvwy", 4), ("k", 5), ("jx", 8), ("qz", 10))
SCORES = {c: points for letters, points in TABLE for c in letters}


def scrabble_score(word):
    """The Scrabble score of the word, ignoring case."""
    word = _string(word, 15, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return sum(SCORES[c] for c in word.lower())


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
