"""Hidden program for algorithm_compare_digit_lists: -1 when the first number is smaller than the second, 1 when it is larger, 0 when they are equal.

Input: two non-negative numbers as lists of decimal digits, most significant first, of the same length; 1 to 9 digits each.
Invalid input raises ValueError.
"""


def compare_digits(numbers):
    """-1, 0 or 1 as the first number is smaller than, equal to or larger than the second."""
    a, b = _same_length_lists(numbers, 0, 9, 1, 9)
    for x, y in zip(a, b):
        if x != y:
            return -1 if x < y else 1
    return 0


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x


def _same_length_lists(x, lo, hi, min_len, max_len):
    """Return x as (a, b) when it is [a, b]: two lists of one length, min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected two lists [a, b]")
    a = _int_list(x[0], lo, hi, min_len, max_len)
    b = _int_list(x[1], lo, hi, min_len, max_len)
    if len(a) != len(b):
        raise ValueError(f"the two lists must have the same length, got {len(a)} and {len(b)}")
    return a, b
