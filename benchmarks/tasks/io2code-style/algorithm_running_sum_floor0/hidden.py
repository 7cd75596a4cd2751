"""Hidden program for algorithm_running_sum_floor0: a running total that starts at 0, adds each element and is set back to 0 whenever it would drop below 0; the total after each element.

Input: list of integers; from 0 to 14 integers in [-10, 10].
Invalid input raises ValueError.
"""


def running_sum_floor0(xs):
    """The running total after each element, never allowed below 0."""
    xs = _int_list(xs, -10, 10, 0, 14)
    total, out = 0, []
    for x in xs:
        total = max(0, total + x)
        out.append(total)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
