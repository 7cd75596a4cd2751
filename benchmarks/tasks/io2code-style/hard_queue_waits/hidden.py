"""Hidden program for hard_queue_waits: how long each customer waits before a single first-come-first-served server starts serving them.

Input: customers: list of [arrival time, service duration], arrivals in non-decreasing order; 0 to 10 customers; arrival times between 0 and 50, durations between 1 and 10.
Invalid input raises ValueError.
"""


def queue_waits(customers):
    """The waiting time of each customer at one FIFO server."""
    pairs = _pair_list(customers, 0, 50, 0, 10)
    if any(d < 1 or d > 10 for _, d in pairs):
        raise ValueError("service durations must be between 1 and 10")
    if any(a > b for (a, _), (b, _) in zip(pairs, pairs[1:])):
        raise ValueError("arrival times must be non-decreasing")
    free_at, waits = 0, []
    for arrival, duration in pairs:
        start = max(arrival, free_at)
        waits.append(start - arrival)
        free_at = start + duration
    return waits


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
