"""Hidden program for hard_trailing_range8: at every position, the largest minus the smallest of the last eight elements (fewer at the start).

Input: list of integers; up to 16 integers, each -100..100.
Invalid input raises ValueError.
"""


def trailing_range8(xs):
    """The largest minus the smallest of the last eight elements, at every position."""
    xs = _int_list(xs, -100, 100, 0, 16)
    out = []
    for i in range(len(xs)):
        window = xs[max(0, i - 7):i + 1]
        out.append(max(window) - min(window))
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
