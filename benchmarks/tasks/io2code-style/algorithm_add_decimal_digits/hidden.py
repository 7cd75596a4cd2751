"""Hidden program for algorithm_add_decimal_digits: the digits of their sum, most significant first, without leading zeros (a zero sum is [0]).

Input: two numbers written as lists of decimal digits, most significant digit first; 1 to 8 digits each (the lengths may differ); leading zeros allowed.
Invalid input raises ValueError.
"""


def add_digit_lists(numbers):
    """The digits of the sum, most significant first, without leading zeros."""
    if not isinstance(numbers, list) or len(numbers) != 2:
        raise ValueError("expected two digit lists [a, b]")
    a, b = (_int_list(xs, 0, 9, 1, 8) for xs in numbers)
    a, b = a[::-1], b[::-1]
    out, carry = [], 0
    for i in range(max(len(a), len(b))):
        s = (a[i] if i < len(a) else 0) + (b[i] if i < len(b) else 0) + carry
        out.append(s % 10)
        carry = s // 10
    if carry:
        out.append(carry)
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
