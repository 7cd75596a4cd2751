"""Hidden program for base_carryless_add_decimal: the digit-by-digit sum modulo 10 (addition that drops every carry).

Input: two lists of decimal digits [a, b] with the same length; 0 to 10 digits each.
Invalid input raises ValueError.
"""


def carryless_add(lists):
    """The digit-by-digit sum modulo 10."""
    a, b = _same_length_lists(lists, 0, 9, 0, 10)
    return [(x + y) % 10 for x, y in zip(a, b)]


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
