"""Hidden program for hard_window_median3: the median of every window of three consecutive elements.

Input: list of integers; 0 to 12 integers, each between -50 and 50.
Invalid input raises ValueError.
"""


def window_median3(xs):
    """The median of every window of three consecutive elements."""
    xs = _int_list(xs, -50, 50, 0, 12)
    return [sorted(xs[i:i + 3])[1] for i in range(len(xs) - 2)]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
