"""Hidden program for base_trailing_sum4: the sum of every element and the up to three elements just before it.

Input: integers; a list of up to 10 integers between -20 and 20.
Invalid input raises ValueError.
"""


def trailing_sum4(xs):
    """The sum of every element and the up to three elements just before it."""
    xs = _int_list(xs, -20, 20, 0, 10)
    return [sum(xs[max(0, i - 3):i + 1]) for i in range(len(xs))]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
