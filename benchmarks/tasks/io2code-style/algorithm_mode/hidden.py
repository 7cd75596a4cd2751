"""Hidden program for algorithm_mode: the most frequent element; ties go to the smallest.

Input: list of integers; 1 to 12 integers, each between -9 and 9.
Invalid input raises ValueError.
"""


def mode(xs):
    """The most frequent element; ties go to the smallest."""
    xs = _int_list(xs, -9, 9, 1, 12)
    counts = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    return min(counts, key=lambda x: (-counts[x], x))


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
