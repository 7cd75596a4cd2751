"""Hidden program for algorithm_two_sum_indices: the indices [i, j] with i < j and nums[i] + nums[j] == target, taking the smallest such j and then the smallest i; [] when there is no such pair.

Input: [nums, target]: an integer list and an integer; nums has 0 to 10 elements between -15 and 15; target between -30 and 30.
Invalid input raises ValueError.
"""


def two_sum(query):
    """Indices [i, j], i < j, of two numbers adding up to target: smallest j, then smallest i."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [nums, target]")
    nums = _int_list(query[0], -15, 15, 0, 10)
    target = _int(query[1], -30, 30)
    for j in range(len(nums)):
        for i in range(j):
            if nums[i] + nums[j] == target:
                return [i, j]
    return []


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
