"""Hidden program for algorithm_base3_increment: the digits of the number plus one, least significant first; a final carry adds a new digit.

Input: a base-3 number as a list of digits 0, 1 and 2, least significant digit first; 1 to 10 digits.
Invalid input raises ValueError.
"""


def increment_base3(digits):
    """The base-3 digits of the number plus one, least significant first."""
    digits = list(_int_list(digits, 0, 2, 1, 10))
    i = 0
    while i < len(digits) and digits[i] == 2:
        digits[i] = 0
        i += 1
    if i == len(digits):
        digits.append(1)
    else:
        digits[i] += 1
    return digits


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
