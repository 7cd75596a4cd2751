"""Hidden program for base_first_index_of_target: the first index at which target occurs in numbers, or -1 when it does not occur.

Input: a list [numbers, target] of an integer list and an integer; 0 to 12 numbers; the numbers and the target all between -20 and 20.
Invalid input raises ValueError.
"""


def first_index(query):
    """The first index of target in numbers, or -1."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [numbers, target]")
    numbers = _int_list(query[0], -20, 20, 0, 12)
    target = _int(query[1], -20, 20)
    for i, x in enumerate(numbers):
        if x == target:
            return i
    return -1


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
