"""Hidden program for algorithm_rotation_amount: the smallest k >= 0 such that a rotated left by k places (its first k elements moved to the end) equals b, or -1 when there is none.

Input: two lists of integers; each list 0 to 8 integers between 0 and 5.
Invalid input raises ValueError.
"""

def rotation_amount(query):
    """How far a must be rotated to the left to give b."""
    a, b = _two_lists(query, 0, 5, 8)
    if len(a) != len(b):
        return -1
    if not a:
        return 0
    for k in range(len(a)):
        if a[k:] + a[:k] == b:
            return k
    return -1


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
