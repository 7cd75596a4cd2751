"""Hidden program for base_floats_floor: the floor of every number, as integers.

Input: list of floats; 0 to 10 numbers, each between -100 and 100, with at most two decimals.
Invalid input raises ValueError.
"""

import math


def floor_each(xs):
    """The floor of every number, as integers."""
    xs = _num_list(xs, -100, 100, 0, 10)
    return [math.floor(x) for x in xs]


def _num_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len numbers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} numbers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
            raise ValueError(f"every element must be a number in [{lo}, {hi}], got {v!r}")
    return x
