"""Hidden program for hard_best_circular_shift: the shift k from 0 to n-1 with the most positions i where a[i] equals b[(i + k) mod n]; the smallest such k on ties.

Input: two lists of integers of the same length; 1 to 10 integers in each, between 0 and 4.
Invalid input raises ValueError.
"""

def best_shift(query):
    """The circular shift of b that lines up best with a."""
    a, b = _two_lists(query, 0, 4, 10)
    n = len(a)
    if n == 0 or len(b) != n:
        raise ValueError("the lists must have the same length, at least 1")
    best_k, best = 0, -1
    for k in range(n):
        matches = 0
        for i in range(n):
            if a[i] == b[(i + k) % n]:
                matches += 1
        if matches > best:
            best_k, best = k, matches
    return best_k


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
