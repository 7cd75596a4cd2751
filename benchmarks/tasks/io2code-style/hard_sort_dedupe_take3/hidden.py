"""Hidden program for hard_sort_dedupe_take3: the three smallest distinct values, ascending (fewer if there are fewer).

Input: list of integers; 0 to 12 integers, each between -20 and 20.
Invalid input raises ValueError.
"""


def sort_dedupe_take3(xs):
    """The three smallest distinct values, ascending (fewer if there are fewer)."""
    xs = _int_list(xs, -20, 20, 0, 12)
    return sorted(set(xs))[:3]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
