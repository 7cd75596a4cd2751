"""Hidden program for base_floats_scale: every number multiplied by 2.5.

Input: list of floats; 0 to 10 numbers, each between -100 and 100, with at most two decimals.
Invalid input raises ValueError.
"""


def scale(xs):
    """Every number multiplied by 2.5; results rounded to 10 decimals (well inside the comparison tolerance)."""
    xs = _num_list(xs, -100, 100, 0, 10)
    return [round(x * 2.5, 10) + 0.0 for x in xs]


def _num_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len numbers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} numbers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
            raise ValueError(f"every element must be a number in [{lo}, {hi}], got {v!r}")
    return x
