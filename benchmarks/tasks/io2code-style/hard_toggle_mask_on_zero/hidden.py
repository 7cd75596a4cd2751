"""Hidden program for hard_toggle_mask_on_zero: every element passed through while a switch is on and replaced by 0 while it is off; the switch starts on and every 0 flips it (a 0 is output as 0).

Input: list of integers; 0 to 14 integers, each between 0 and 9.
Invalid input raises ValueError.
"""


def toggle_mask(xs):
    """Elements pass while the switch is on, become 0 while it is off; every 0 flips the switch."""
    xs = _int_list(xs, 0, 9, 0, 14)
    on, out = True, []
    for x in xs:
        if x == 0:
            on = not on
            out.append(0)
        else:
            out.append(x if on else 0)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
