"""Hidden program for base_shift_right3_fill0: the list delayed by three places: three zeros enter on the left and the last three elements drop off, so the length stays the same.

Input: list of integers; a list of 0 to 12 integers from -50 to 50.
Invalid input raises ValueError.
"""


def delay3(xs):
    """The list delayed by three places, zeros entering on the left; the length stays the same."""
    xs = _int_list(xs, -50, 50, 0, 12)
    return ([0, 0, 0] + xs)[:len(xs)]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
