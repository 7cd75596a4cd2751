"""Hidden program for algorithm_last3_all_equal: 1 where an element and the two elements before it are all equal, else 0 (0 at the first two positions).

Input: list of integers; 0 to 14 integers, each between -3 and 3.
Invalid input raises ValueError.
"""


def last3_all_equal(xs):
    """1 where an element and the two before it are all equal, else 0."""
    xs = _int_list(xs, -3, 3, 0, 14)
    out = []
    for i, v in enumerate(xs):
        out.append(1 if i >= 2 and xs[i - 2] == xs[i - 1] == v else 0)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
