"""Hidden program for hard_sample_and_hold: values[i] where triggers[i] is 1, otherwise the value last sampled (0 before the first trigger).

Input: [values, triggers]: a list of integers and a list of 0/1 triggers of the same length; 0 to 12 positions; values between -9 and 9.
Invalid input raises ValueError.
"""


def sample_and_hold(lists):
    """Values[i] where triggers[i] is 1, otherwise the value last sampled (0 at first)."""
    values, triggers = _same_length_lists(lists, -9, 9, 0, 12)
    if any(t not in (0, 1) for t in triggers):
        raise ValueError("every trigger must be 0 or 1")
    held, out = 0, []
    for v, t in zip(values, triggers):
        if t == 1:
            held = v
        out.append(held)
    return out


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
