"""Hidden program for algorithm_running_score_gap: after every round, home's total so far minus away's total so far.

Input: two lists [home, away] of points per round, of the same length; 0 to 12 rounds, 0 to 9 points each.
Invalid input raises ValueError.
"""


def running_score_gap(rounds):
    """After every round, home's total so far minus away's total so far."""
    home, away = _same_length_lists(rounds, 0, 9, 0, 12)
    gap, out = 0, []
    for h, a in zip(home, away):
        gap += h - a
        out.append(gap)
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
