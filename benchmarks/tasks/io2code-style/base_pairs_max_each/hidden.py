"""Hidden program for base_pairs_max_each: the larger member of every pair.

Input: list of integer pairs [a, b]; 0 to 8 pairs, each member between -20 and 20.
Invalid input raises ValueError.
"""


def pair_max(pairs):
    """The larger member of every pair."""
    pairs = _pair_list(pairs, -20, 20, 0, 8)
    return [max(a, b) for a, b in pairs]


def _pair_list(x, lo, hi, min_len, max_len):
    """Return x as a list of (a, b) tuples when it holds min_len..max_len integer pairs in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} pairs")
    out = []
    for p in x:
        if not isinstance(p, list) or len(p) != 2:
            raise ValueError(f"every element must be a pair [a, b], got {p!r}")
        for v in p:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"pair members must be integers in [{lo}, {hi}], got {v!r}")
        out.append((p[0], p[1]))
    return out
