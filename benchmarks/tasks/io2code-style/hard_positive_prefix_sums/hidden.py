"""Hidden program for hard_positive_prefix_sums: running sums of the strictly positive elements only.

Input: list of integers; 0 to 12 integers, each between -50 and 50.
Invalid input raises ValueError.
"""


def positive_prefix_sums(xs):
    """Running sums of the strictly positive elements only."""
    xs = _int_list(xs, -50, 50, 0, 12)
    out, total = [], 0
    for x in xs:
        if x > 0:
            total += x
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
