"""Hidden program for hard_max_sorted_gap: the largest difference between neighbours once the list is sorted (0 for fewer than two elements).

Input: list of integers; 0 to 12 integers, each between -50 and 50.
Invalid input raises ValueError.
"""


def max_sorted_gap(xs):
    """The largest difference between neighbours once the list is sorted (0 for fewer than two elements)."""
    xs = _int_list(xs, -50, 50, 0, 12)
    s = sorted(xs)
    return max((b - a for a, b in zip(s, s[1:])), default=0)


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
