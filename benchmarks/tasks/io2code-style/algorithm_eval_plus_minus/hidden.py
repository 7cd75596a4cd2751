"""Hidden program for algorithm_eval_plus_minus: the value of the expression, worked out from left to right.

Input: an arithmetic expression; 1 to 30 characters: numbers of 1 to 3 digits joined by + and -, no spaces, no sign in front of the first number.
Invalid input raises ValueError.
"""

def evaluate(s):
    """Evaluate a chain of additions and subtractions."""
    s = _string(s, 30, "0123456789+-")
    total = 0
    sign = 1
    number = ""
    for c in s + "+":
        if c.isdigit():
            number += c
            continue
        if not 1 <= len(number) <= 3:
            raise ValueError("every operator needs a number of 1 to 3 digits on each side")
        total += sign * int(number)
        number = ""
        sign = 1 if c == "+" else -1
    return total


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
