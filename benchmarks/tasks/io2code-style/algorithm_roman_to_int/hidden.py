"""Hidden program for algorithm_roman_to_int: the number the Roman numeral stands for.

Input: a Roman numeral; a valid numeral in standard subtractive form for a number from 1 to 3999, upper case.
Invalid input raises ValueError.
"""


VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def roman_to_int(s):
    """The number the Roman numeral stands for."""
    if not isinstance(s, str) or not 1 <= len(s) <= 15 or any(c not in VALUES for c in s):
        raise ValueError("expected a Roman numeral of the letters IVXLCDM")
    total = 0
    for i, c in enumerate(s):
        v = VALUES[c]
        if i + 1 < len(s) and VALUES[s[i + 1]] > v:
            total -= v
        else:
            total += v
    if not 1 <= total <= 3999 or _roman(total) != s:
        raise ValueError(f"{s!r} is not a numeral in standard form")
    return total


def _roman(n):
    """N as a Roman numeral in standard subtractive form."""
    out = ""
    for value, sym in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                       (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += sym
            n -= value
    return out
