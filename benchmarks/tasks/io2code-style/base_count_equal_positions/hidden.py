"""Hidden program for base_count_equal_positions: how many positions i (up to the length of the shorter list) have a[i] equal to b[i].

Input: two lists of digits; each list 0 to 10 integers between 0 and 9.
Invalid input raises ValueError.
"""

def equal_positions(query):
    """Count the positions where the two lists agree."""
    a, b = _two_lists(query, 0, 9, 10)
    count = 0
    for i in range(min(len(a), len(b))):
        if a[i] == b[i]:
            count += 1
    return count


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x


def _two_lists(x, lo, hi, max_len):
    """Return x as (a, b) when it is two lists of at most max_len integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected two lists [a, b]")
    return _int_list(x[0], lo, hi, 0, max_len), _int_list(x[1], lo, hi, 0, max_len)
