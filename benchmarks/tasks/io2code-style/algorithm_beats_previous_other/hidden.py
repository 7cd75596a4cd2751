"""Hidden program for algorithm_beats_previous_other: 1 where a[i] is greater than b[i-1], else 0; at i = 0 the previous b counts as 0.

Input: [a, b]: two integer lists of the same length; 0 to 10 integers each, every one between -20 and 20.
Invalid input raises ValueError.
"""


def beats_previous_other(lists):
    """1 where a[i] > b[i-1] (b before the start is 0), else 0."""
    a, b = _same_length_lists(lists, -20, 20, 0, 10)
    prev = [0] + b[:-1]
    return [1 if x > p else 0 for x, p in zip(a, prev)]


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
