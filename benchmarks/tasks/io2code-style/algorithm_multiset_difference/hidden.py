"""Hidden program for algorithm_multiset_difference: what is left of a when, for every element of b in turn, the first remaining equal element of a is removed (elements of b not in a remove nothing).

Input: two lists of integers; each list 0 to 10 integers between -9 and 9.
Invalid input raises ValueError.
"""

def difference(query):
    """a minus b, counting how often each value occurs."""
    a, b = _two_lists(query, -9, 9, 10)
    rest = list(a)
    for v in b:
        if v in rest:
            rest.remove(v)
    return rest


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
