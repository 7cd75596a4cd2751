"""Hidden program for hard_target_sum_slice: the first non-empty contiguous slice of numbers whose sum is target, as [start, end] with end exclusive, taking the smallest start and then the smallest end; null when there is none.

Input: a list [numbers, target]; numbers: 0 to 12 integers between -10 and 10; target: an integer between -30 and 30.
Invalid input raises ValueError.
"""


def target_sum_slice(query):
    """[start, end) of the first non-empty slice summing to target (smallest start, then end), or None."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [numbers, target]")
    numbers = _int_list(query[0], -10, 10, 0, 12)
    target = _int(query[1], -30, 30)
    for start in range(len(numbers)):
        total = 0
        for end in range(start + 1, len(numbers) + 1):
            total += numbers[end - 1]
            if total == target:
                return [start, end]
    return None


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
