"""Hidden program for algorithm_same_multiset: whether b is a rearrangement of a: every value occurs equally often in both.

Input: two lists of integers; each list 0 to 10 integers between -9 and 9.
Invalid input raises ValueError.
"""

def same_multiset(query):
    """Whether the two lists hold the same values the same number of times."""
    a, b = _two_lists(query, -9, 9, 10)
    counts = {}
    for v in a:
        counts[v] = counts.get(v, 0) + 1
    for v in b:
        counts[v] = counts.get(v, 0) - 1
    return all(c == 0 for c in counts.values())


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x


def _two_lists(x, lo, hi, max_len):
    """Return x as (a, b) when it is two lists of at most max_len integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected two lists [a, b]")
    return _int_list(x[0], lo, hi, 0, max_len), _int_list(x[1], lo, hi, 0, max_len)
