"""Hidden program for algorithm_current_streak: the length of the run of equal values that ends at each position.

Input: list of integers; 0 to 15 integers between 0 and 4.
Invalid input raises ValueError.
"""


def current_streak(xs):
    """The length of the run of equal values ending at each position."""
    xs = _int_list(xs, 0, 4, 0, 15)
    out = []
    for i, x in enumerate(xs):
        out.append(out[-1] + 1 if i > 0 and xs[i - 1] == x else 1)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
