"""Hidden program for base_total_sentence: the sentence "Total is T" where T is the sum of the numbers.

Input: list of integers; 0 to 10 integers, each between -50 and 50.
Invalid input raises ValueError.
"""

def total_sentence(xs):
    """'Total is T' for the sum T of the list."""
    xs = _int_list(xs, -50, 50, 0, 10)
    total = 0
    for x in xs:
        total += x
    return "Total is " + str(total)


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
