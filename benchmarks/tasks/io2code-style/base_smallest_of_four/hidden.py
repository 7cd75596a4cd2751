"""Hidden program for base_smallest_of_four: the smallest of the four integers.

Input: a list of four integers [a, b, c, d]; each from -1000 to 1000.
Invalid input raises ValueError.
"""


def smallest_of_four(values):
    """The smallest of the four integers."""
    a, b, c, d = _int_list(values, -1000, 1000, 4, 4)
    best = a
    for v in (b, c, d):
        if v < best:
            best = v
    return best


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
