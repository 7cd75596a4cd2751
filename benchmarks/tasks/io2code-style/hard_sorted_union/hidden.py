"""Hidden program for hard_sorted_union: every value found in either list, once each, ascending.

Input: two lists of integers [a, b]; each list has 0 to 8 integers between -10 and 10.
Invalid input raises ValueError.
"""


def sorted_union(lists):
    """Every value found in either list, once each, ascending."""
    a, b = _two_lists(lists, -10, 10, 8)
    return sorted(set(a) | set(b))


def _two_lists(x, lo, hi, max_len):
    """Return x as (a, b) when it is [a, b] with two lists of at most max_len integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected two lists [a, b]")
    for xs in x:
        if not isinstance(xs, list) or len(xs) > max_len:
            raise ValueError(f"each list must hold at most {max_len} integers")
        for v in xs:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
