"""Hidden program for algorithm_lis_length: length of the longest strictly increasing subsequence (not necessarily contiguous).

Input: list of integers; 0 to 12 integers, each between -50 and 50.
Invalid input raises ValueError.
"""


def lis_length(xs):
    """Length of the longest strictly increasing subsequence (not necessarily contiguous)."""
    xs = _int_list(xs, -50, 50, 0, 12)
    best = []
    for i, x in enumerate(xs):
        best.append(1 + max((best[j] for j in range(i) if xs[j] < x), default=0))
    return max(best, default=0)


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
