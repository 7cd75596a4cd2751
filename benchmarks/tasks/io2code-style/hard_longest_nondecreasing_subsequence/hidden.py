"""Hidden program for hard_longest_nondecreasing_subsequence: the length of the longest subsequence (not necessarily contiguous) whose values never decrease.

Input: list of integers; 0 to 15 integers, each between 0 and 9.
Invalid input raises ValueError.
"""


def longest_nondecreasing(xs):
    """The length of the longest non-decreasing subsequence."""
    xs = _int_list(xs, 0, 9, 0, 15)
    best = []
    for i, x in enumerate(xs):
        best.append(1 + max([best[j] for j in range(i) if xs[j] <= x], default=0))
    return max(best, default=0)


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
