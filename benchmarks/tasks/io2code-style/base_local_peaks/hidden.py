"""Hidden program for base_local_peaks: the indices i of the elements strictly greater than both neighbours (the first and last elements have only one neighbour and are never peaks).

Input: list of integers; 0 to 12 integers between -20 and 20.
Invalid input raises ValueError.
"""

def local_peaks(xs):
    """Positions of the elements higher than the element on each side."""
    xs = _int_list(xs, -20, 20, 0, 12)
    out = []
    for i in range(1, len(xs) - 1):
        if xs[i] > xs[i - 1] and xs[i] > xs[i + 1]:
            out.append(i)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
