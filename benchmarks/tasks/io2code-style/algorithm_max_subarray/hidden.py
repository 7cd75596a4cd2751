"""Hidden program for algorithm_max_subarray: the largest sum of a non-empty contiguous slice.

Input: list of integers; 1 to 12 integers, each between -50 and 50.
Invalid input raises ValueError.
"""


def max_subarray(xs):
    """The largest sum of a non-empty contiguous slice."""
    xs = _int_list(xs, -50, 50, 1, 12)
    best = cur = xs[0]
    for x in xs[1:]:
        cur = max(x, cur + x)
        best = max(best, cur)
    return best


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
