"""Hidden program for algorithm_binary_add_lsb_first: the bits of a + b, least significant first, always one bit longer than the inputs (the final carry, possibly 0, comes last).

Input: two binary numbers [a, b] as bit lists of equal length, least significant bit first; 1 to 10 bits each.
Invalid input raises ValueError.
"""


def binary_add(numbers):
    """The bits of a + b, least significant first, the final carry last."""
    a, b = _same_length_lists(numbers, 0, 1, 1, 10)
    out, carry = [], 0
    for x, y in zip(a, b):
        s = x + y + carry
        out.append(s % 2)
        carry = s // 2
    return out + [carry]


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
