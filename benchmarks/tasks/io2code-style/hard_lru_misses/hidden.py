"""Hidden program for hard_lru_misses: how many requests miss a least-recently-used cache of the given capacity.

Input: object {"capacity": c, "requests": [key, ...]}; capacity between 1 and 4; 0 to 15 requests, keys between 0 and 6.
Invalid input raises ValueError.
"""


def lru_misses(query):
    """Count the misses of an LRU cache that starts empty."""
    if not isinstance(query, dict) or set(query) != {"capacity", "requests"}:
        raise ValueError("expected an object with keys capacity and requests")
    capacity = _int(query["capacity"], 1, 4)
    requests = _int_list(query["requests"], 0, 6, 0, 15)
    cache, misses = [], 0
    for key in requests:
        if key in cache:
            cache.remove(key)
        else:
            misses += 1
            if len(cache) == capacity:
                cache.pop(0)
        cache.append(key)
    return misses


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
