"""Hidden program for hard_alternating_zip: a[i] + b[i] at even i and a[i] - b[i] at odd i, over the length of the shorter list.

Input: two lists of integers [a, b]; each list has 0 to 8 integers between -30 and 30.
Invalid input raises ValueError.
"""


def alternating_zip(lists):
    """A[i] + b[i] at even i and a[i] - b[i] at odd i, over the length of the shorter list."""
    a, b = _two_lists(lists, -30, 30, 8)
    return [x + y if i % 2 == 0 else x - y for i, (x, y) in enumerate(zip(a, b))]


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
