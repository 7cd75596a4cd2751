"""Hidden program for hard_distinct_mod5: how many distinct remainders modulo 5 the elements have.

Input: list of integers; 0 to 12 integers, each between -50 and 50.
Invalid input raises ValueError.
"""


def distinct_mod5(xs):
    """How many distinct remainders modulo 5 the elements have."""
    xs = _int_list(xs, -50, 50, 0, 12)
    return len({x % 5 for x in xs})


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
