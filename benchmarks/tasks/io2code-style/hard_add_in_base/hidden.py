"""Hidden program for hard_add_in_base: the digits of a + b in that base, least significant first, with a final carry digit only when it is not 0.

Input: a list [base, a, b]: the base (2 to 10) and two digit lists of the same length, least significant digit first; each digit list has 1 to 8 digits, every digit below the base.
Invalid input raises ValueError.
"""


def add_in_base(query):
    """The digits of a + b in the given base, least significant first."""
    if not isinstance(query, list) or len(query) != 3:
        raise ValueError("expected [base, a, b]")
    base = _int(query[0], 2, 10)
    a = _int_list(query[1], 0, base - 1, 1, 8)
    b = _int_list(query[2], 0, base - 1, 1, 8)
    if len(a) != len(b):
        raise ValueError("the two digit lists must have the same length")
    out, carry = [], 0
    for x, y in zip(a, b):
        s = x + y + carry
        out.append(s % base)
        carry = s // base
    if carry:
        out.append(carry)
    return out


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
