"""Hidden program for algorithm_max_non_adjacent_sum: the largest total of elements that can be taken with no two taken elements next to each other (taking nothing gives 0).

Input: list of house values; 0 to 14 integers, each between -10 and 40.
Invalid input raises ValueError.
"""


def max_non_adjacent_sum(xs):
    """The best sum of elements no two of which are adjacent (0 when none is taken)."""
    xs = _int_list(xs, -10, 40, 0, 14)
    take, skip = 0, 0
    for x in xs:
        take, skip = skip + x, max(take, skip)
    return max(take, skip)


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
