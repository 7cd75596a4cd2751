"""Hidden program for algorithm_rotate_by_k: xs rotated right by k places (left when k is negative), wrapping around.

Input: [xs, k]: a list of integers and a rotation amount; xs has 0 to 10 integers between -9 and 9; k between -9 and 9.
Invalid input raises ValueError.
"""


def rotate(query):
    """Xs rotated right by k places, left when k is negative."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [xs, k]")
    xs = _int_list(query[0], -9, 9, 0, 10)
    k = _int(query[1], -9, 9)
    if not xs:
        return []
    k %= len(xs)
    return xs[len(xs) - k:] + xs[:len(xs) - k]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
