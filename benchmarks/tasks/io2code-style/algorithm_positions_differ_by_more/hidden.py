"""Hidden program for algorithm_positions_differ_by_more: the indices i at which |a[i] - b[i]| is greater than limit, in increasing order.

Input: [a, b, limit]: two integer lists of equal length and a non-negative limit; the lists hold 0 to 10 integers between -20 and 20; the limit is from 0 to 20.
Invalid input raises ValueError.
"""


def positions_differ(query):
    """The indices where a and b differ by more than limit."""
    if not isinstance(query, list) or len(query) != 3:
        raise ValueError("expected [a, b, limit]")
    a = _int_list(query[0], -20, 20, 0, 10)
    b = _int_list(query[1], -20, 20, 0, 10)
    if len(a) != len(b):
        raise ValueError("a and b must have the same length")
    limit = _int(query[2], 0, 20)
    return [i for i, (x, y) in enumerate(zip(a, b)) if abs(x - y) > limit]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
