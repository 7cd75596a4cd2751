"""Hidden program for base_same_as_two_back: 1 where an element equals the element two places before it, else 0 (0 for the first two elements).

Input: list of small integers; 0 to 14 integers, each from 0 to 5.
Invalid input raises ValueError.
"""


def same_as_two_back(xs):
    """1 where an element equals the one two places before it, else 0."""
    xs = _int_list(xs, 0, 5, 0, 14)
    return [1 if i >= 2 and xs[i] == xs[i - 2] else 0 for i in range(len(xs))]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
