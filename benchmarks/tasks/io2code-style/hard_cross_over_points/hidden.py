"""Hidden program for hard_cross_over_points: 1 at i > 0 where fast crosses above slow (fast[i-1] <= slow[i-1] and fast[i] > slow[i]), -1 where it crosses below (fast[i-1] >= slow[i-1] and fast[i] < slow[i]), 0 elsewhere and at i = 0.

Input: two price series [fast, slow] of the same length; 0 to 14 integers each, between 0 and 50.
Invalid input raises ValueError.
"""


def cross_over_points(series):
    """1 where fast crosses above slow, -1 where it crosses below, 0 elsewhere."""
    fast, slow = _same_length_lists(series, 0, 50, 0, 14)
    out = []
    for i in range(len(fast)):
        if i > 0 and fast[i - 1] <= slow[i - 1] and fast[i] > slow[i]:
            out.append(1)
        elif i > 0 and fast[i - 1] >= slow[i - 1] and fast[i] < slow[i]:
            out.append(-1)
        else:
            out.append(0)
    return out


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
