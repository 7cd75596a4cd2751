"""Hidden program for hard_top3_by_abs: the three elements largest in absolute value, largest first (earlier first on ties).

Input: list of integers; 0 to 12 integers, each between -20 and 20.
Invalid input raises ValueError.
"""


def top3_by_abs(xs):
    """The three elements largest in absolute value, largest first (earlier first on ties)."""
    xs = _int_list(xs, -20, 20, 0, 12)
    return sorted(xs, key=lambda x: -abs(x))[:3]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
