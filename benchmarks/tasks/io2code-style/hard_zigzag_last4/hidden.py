"""Hidden program for hard_zigzag_last4: 1 where the last four elements strictly alternate up and down (every step changes direction and none is flat), else 0 (0 at the first three positions).

Input: list of integers; 0 to 14 integers, each between 0 and 20.
Invalid input raises ValueError.
"""


def zigzag_last4(xs):
    """1 where the last four elements strictly alternate up and down, else 0."""
    xs = _int_list(xs, 0, 20, 0, 14)
    out = []
    for i in range(len(xs)):
        if i < 3:
            out.append(0)
            continue
        steps = [xs[j] - xs[j - 1] for j in range(i - 2, i + 1)]
        ok = all(s != 0 for s in steps) and steps[0] * steps[1] < 0 and steps[1] * steps[2] < 0
        out.append(1 if ok else 0)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
