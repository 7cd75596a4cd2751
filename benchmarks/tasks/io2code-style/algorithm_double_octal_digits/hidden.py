"""Hidden program for algorithm_double_octal_digits: the octal digits of twice the number, least significant first, with one more digit only when the last column carries.

Input: an octal number as a list of digits 0-7, least significant first; 1 to 9 digits.
Invalid input raises ValueError.
"""


def double_octal(digits):
    """The octal digits of twice the number, least significant first."""
    digits = _int_list(digits, 0, 7, 1, 9)
    out, carry = [], 0
    for d in digits:
        v = 2 * d + carry
        out.append(v % 8)
        carry = v // 8
    if carry:
        out.append(carry)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
