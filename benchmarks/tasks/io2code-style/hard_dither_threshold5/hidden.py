"""Hidden program for hard_dither_threshold5: one-dimensional error diffusion: the carried error is added to each value; when the sum is at least 5 the output is 1 and the sum minus 10 is carried, otherwise the output is 0 and the sum is carried; the carry starts at 0.

Input: list of pixel intensities; 0 to 14 integers, each from 0 to 9.
Invalid input raises ValueError.
"""


def dither(xs):
    """Threshold each value plus the carried error at 5, carrying what the output missed."""
    xs = _int_list(xs, 0, 9, 0, 14)
    carry, out = 0, []
    for x in xs:
        v = x + carry
        bit = 1 if v >= 5 else 0
        carry = v - 10 * bit
        out.append(bit)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
