"""Hidden program for base_dedupe_adjacent: runs of equal neighbours collapsed to one element.

Input: list of integers; 0 to 12 integers, each between -5 and 5.
Invalid input raises ValueError.
"""


def dedupe_adjacent(xs):
    """Runs of equal neighbours collapsed to one element."""
    xs = _int_list(xs, -5, 5, 0, 12)
    out = []
    for x in xs:
        if not out or out[-1] != x:
            out.append(x)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
