"""Hidden program for hard_eval_with_precedence: the value of the expression where * is done before + and -, and operators of one kind go from left to right.

Input: an arithmetic expression; 1 to 30 characters: numbers of 1 to 3 digits joined by +, - and *, no spaces, no sign in front of the first number.
Invalid input raises ValueError.
"""

def evaluate(s):
    """Evaluate sums and differences of products."""
    s = _string(s, 30, "0123456789+-*")
    numbers, ops = [], []
    number = ""
    for c in s + "+":
        if c.isdigit():
            number += c
            continue
        if not 1 <= len(number) <= 3:
            raise ValueError("every operator needs a number of 1 to 3 digits on each side")
        numbers.append(int(number))
        ops.append(c)
        number = ""
    total = 0
    sign = 1
    term = numbers[0]
    for i in range(1, len(numbers)):
        if ops[i - 1] == "*":
            term *= numbers[i]
        else:
            total += sign * term
            sign = 1 if ops[i - 1] == "+" else -1
            term = numbers[i]
    return total + sign * term


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
