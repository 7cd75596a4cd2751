"""Hidden program for base_multiples_up_to: the multiples k, 2k, 3k, ... that are at most n.

Input: [k, n]: a step and a limit; k from 1 to 12; n from 0 to 100.
Invalid input raises ValueError.
"""

def multiples(query):
    """The positive multiples of k up to n."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [k, n]")
    k = _int(query[0], 1, 12)
    n = _int(query[1], 0, 100)
    out = []
    for m in range(k, n + 1, k):
        out.append(m)
    return out


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
