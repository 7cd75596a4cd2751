"""Hidden program for base_evens_and_odds: two lists: the even elements and the odd elements, each in their original order.

Input: list of integers; 0 to 10 integers between -20 and 20.
Invalid input raises ValueError.
"""

def evens_and_odds(xs):
    """Split the list into its even and its odd elements."""
    xs = _int_list(xs, -20, 20, 0, 10)
    evens, odds = [], []
    for x in xs:
        if x % 2 == 0:
            evens.append(x)
        else:
            odds.append(x)
    return evens, odds


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
