"""Hidden program for base_min_and_max: the pair (smallest, largest) of the list.

Input: list of integers; 1 to 10 integers between -100 and 100.
Invalid input raises ValueError.
"""

def min_and_max(xs):
    """The smallest and the largest element, found in one pass."""
    xs = _int_list(xs, -100, 100, 1, 10)
    low = high = xs[0]
    for x in xs[1:]:
        if x < low:
            low = x
        if x > high:
            high = x
    return low, high


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
