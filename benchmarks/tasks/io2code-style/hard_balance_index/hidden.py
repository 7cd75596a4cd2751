"""Hidden program for hard_balance_index: the smallest i with sum(xs[:i]) == sum(xs[i:]), or -1 when there is none.

Input: list of integers; 0 to 12 integers, each between -5 and 5.
Invalid input raises ValueError.
"""


def balance_index(xs):
    """The smallest i with sum(xs[:i]) == sum(xs[i:]), or -1 when there is none."""
    xs = _int_list(xs, -5, 5, 0, 12)
    total, left = sum(xs), 0
    for i in range(len(xs) + 1):
        if 2 * left == total:
            return i
        if i < len(xs):
            left += xs[i]
    return -1


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
