"""Hidden program for hard_trailing_dot3: at every position i, the sum of a[j] * b[j] over the last three positions j = i-2, i-1, i (fewer at the start).

Input: two lists [a, b] of small integers, equal lengths; 0 to 10 each, values -5 to 5.
Invalid input raises ValueError.
"""


def trailing_dot3(lists):
    """The sum of a[j] * b[j] over the last three positions, at every position."""
    a, b = _same_length_lists(lists, -5, 5, 0, 10)
    products = [x * y for x, y in zip(a, b)]
    return [sum(products[max(0, i - 2):i + 1]) for i in range(len(products))]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x


def _same_length_lists(x, lo, hi, min_len, max_len):
    """Return x as (a, b) when it is [a, b]: two lists of one length, min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected two lists [a, b]")
    a = _int_list(x[0], lo, hi, min_len, max_len)
    b = _int_list(x[1], lo, hi, min_len, max_len)
    if len(a) != len(b):
        raise ValueError(f"the two lists must have the same length, got {len(a)} and {len(b)}")
    return a, b
