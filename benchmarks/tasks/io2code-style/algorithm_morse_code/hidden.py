"""Hidden program for algorithm_morse_code: the message in Morse code: the code of every letter (a .-, b -..., ..., z --..), letters separated by one space and words by " / ".

Input: a message; 0 to 16 characters: lowercase letters and single spaces between words, no space at either end.
Invalid input raises ValueError.
"""

CODES = {
    "a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....",
    "i": "..", "j": ".---", "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.",
    "q": "--.-", "r": ".-.", "s": "...", "t": "-", "u": "..-", "v": "...-", "w": ".--", "x": "-..-",
    "y": "-.--", "z": "--..",
}


def morse(s):
    """Encode a message letter by letter in Morse code."""
    s = _sentence(s, 16, "abcdefghijklmnopqrstuvwxyz")
    words = []
    for word in s.split(" ") if s else []:
        words.append(" ".join(CODES[c] for c in word))
    return " / ".join(words)


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x


def _sentence(x, max_len, letters):
    """Return x when it is words of letters separated by single spaces, at most max_len characters."""
    x = _string(x, max_len, letters + " ")
    if x and not all(x.split(" ")):
        raise ValueError("words must be separated by single spaces, with no space at either end")
    return x
