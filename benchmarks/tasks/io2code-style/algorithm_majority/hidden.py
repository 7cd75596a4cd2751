"""Hidden program for algorithm_majority: the element occurring in more than half the positions, or null when there is none.

Input: list of integers; 0 to 12 integers, each between -5 and 5.
Invalid input raises ValueError.
"""


def majority(xs):
    """The element occurring in more than half the positions, or null when there is none."""
    xs = _int_list(xs, -5, 5, 0, 12)
    for x in set(xs):
        if 2 * xs.count(x) > len(xs):
            return x
    return None


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
