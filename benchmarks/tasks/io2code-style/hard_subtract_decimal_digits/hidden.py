"""Hidden program for hard_subtract_decimal_digits: the digits of their difference, most significant first, without leading zeros.

Input: two numbers as lists of decimal digits, most significant digit first, the first at least as large as the second; 1 to 8 digits each, no leading zeros except in the number 0 itself.
Invalid input raises ValueError.
"""


def subtract_digits(numbers):
    """The digits of a - b, most significant first, without leading zeros."""
    if not isinstance(numbers, list) or len(numbers) != 2:
        raise ValueError("expected two digit lists [a, b]")
    a, b = (_int_list(xs, 0, 9, 1, 8) for xs in numbers)
    for xs in (a, b):
        if len(xs) > 1 and xs[0] == 0:
            raise ValueError(f"{xs!r} has a leading zero")
    if len(a) < len(b) or (len(a) == len(b) and a < b):
        raise ValueError("the first number must be at least the second")
    a, b = a[::-1], b[::-1]
    out, borrow = [], 0
    for i in range(len(a)):
        d = a[i] - (b[i] if i < len(b) else 0) - borrow
        borrow = 1 if d < 0 else 0
        out.append(d + 10 * borrow)
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return out[::-1]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
