"""Hidden program for hard_dense_rank: every element replaced by its rank among the distinct values (smallest is 1).

Input: list of integers; 0 to 12 integers, each between -10 and 10.
Invalid input raises ValueError.
"""


def dense_rank(xs):
    """Every element replaced by its rank among the distinct values (smallest is 1)."""
    xs = _int_list(xs, -10, 10, 0, 12)
    rank = {v: i + 1 for i, v in enumerate(sorted(set(xs)))}
    return [rank[x] for x in xs]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
