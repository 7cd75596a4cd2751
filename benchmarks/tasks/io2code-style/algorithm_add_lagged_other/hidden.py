"""Hidden program for algorithm_add_lagged_other: a[i] + b[i-1] at every position, with b[-1] taken as 0 (so b's last element is never used).

Input: a pair of integer lists [a, b] with equal lengths; 0 to 10 elements each, from -25 to 25.
Invalid input raises ValueError.
"""


def add_lagged_other(lists):
    """A[i] + b[i-1] at every position, b before the start being 0."""
    a, b = _same_length_lists(lists, -25, 25, 0, 10)
    out = []
    prev = 0
    for x, y in zip(a, b):
        out.append(x + prev)
        prev = y
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
