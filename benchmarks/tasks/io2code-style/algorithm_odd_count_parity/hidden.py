"""Hidden program for algorithm_odd_count_parity: after each element, 1 when an odd number of the elements so far are odd, else 0.

Input: list of integers; 0 to 12 integers, each between -40 and 40.
Invalid input raises ValueError.
"""


def odd_count_parity(xs):
    """After each element, 1 when an odd number of the elements so far are odd."""
    xs = _int_list(xs, -40, 40, 0, 12)
    parity, out = 0, []
    for x in xs:
        if x % 2 != 0:
            parity = 1 - parity
        out.append(parity)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
