"""Hidden program for hard_sum_even_squares: the sum of the squares of the even elements.

Input: list of integers; 0 to 12 integers, each between -50 and 50.
Invalid input raises ValueError.
"""


def sum_even_squares(xs):
    """The sum of the squares of the even elements."""
    xs = _int_list(xs, -50, 50, 0, 12)
    return sum(x * x for x in xs if x % 2 == 0)


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
