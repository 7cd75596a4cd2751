"""Hidden program for algorithm_count_positive_last5: at every position, how many of the last five elements (the element itself and up to four before it) are strictly positive.

Input: list of integers; between 0 and 15 integers in the range -9..9.
Invalid input raises ValueError.
"""


def count_positive_last5(xs):
    """How many of the last five elements are strictly positive, at every position."""
    xs = _int_list(xs, -9, 9, 0, 15)
    return [sum(1 for v in xs[max(0, i - 4):i + 1] if v > 0) for i in range(len(xs))]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
