"""Hidden program for base_median_of_three: the middle value of the three once they are sorted.

Input: three integers [a, b, c]; between -100 and 100.
Invalid input raises ValueError.
"""


def median_of_three(values):
    """The middle one of three integers."""
    a, b, c = _int_list(values, -100, 100, 3, 3)
    if a > b:
        a, b = b, a
    if b > c:
        b = c
    return max(a, b)


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
