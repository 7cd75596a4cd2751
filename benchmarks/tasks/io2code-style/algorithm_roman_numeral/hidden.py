"""Hidden program for algorithm_roman_numeral: n written as a Roman numeral.

Input: integer; one integer between 1 and 3999.
Invalid input raises ValueError.
"""


def roman_numeral(n):
    """N written as a Roman numeral."""
    n = _int(n, 1, 3999)
    out = ''
    for value, sym in ((1000, 'M'), (900, 'CM'), (500, 'D'), (400, 'CD'), (100, 'C'), (90, 'XC'),
                       (50, 'L'), (40, 'XL'), (10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I')):
        while n >= value:
            out += sym
            n -= value
    return out


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
