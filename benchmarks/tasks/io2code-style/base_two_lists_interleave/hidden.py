"""Hidden program for base_two_lists_interleave: a[0], b[0], a[1], b[1], ... then the rest of the longer list.

Input: two lists of integers [a, b]; each list has 0 to 8 integers between -30 and 30.
Invalid input raises ValueError.
"""


def interleave(lists):
    """A[0], b[0], a[1], b[1], ... then the rest of the longer list."""
    a, b = _two_lists(lists, -30, 30, 8)
    out = []
    for i in range(max(len(a), len(b))):
        if i < len(a):
            out.append(a[i])
        if i < len(b):
            out.append(b[i])
    return out


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
