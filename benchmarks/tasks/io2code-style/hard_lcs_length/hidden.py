"""Hidden program for hard_lcs_length: the length of the longest common subsequence of the two lists.

Input: two lists of integers [a, b]; each list has 0 to 8 integers between -3 and 3.
Invalid input raises ValueError.
"""


def lcs_length(lists):
    """The length of the longest common subsequence of the two lists."""
    a, b = _two_lists(lists, -3, 3, 8)
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def _two_lists(x, lo, hi, max_len):
    """Return x as (a, b) when it is [a, b] with two lists of at most max_len integers in [lo, hi]."""
    if not isinstance(x, list) or len(x) != 2:
        raise ValueError("expected two lists [a, b]")
    for xs in x:
        if not isinstance(xs, list) or len(xs) > max_len:
            raise ValueError(f"each list must hold at most {max_len} integers")
        for v in xs:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x[0], x[1]
