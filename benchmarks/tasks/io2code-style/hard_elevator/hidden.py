"""Hidden program for hard_elevator: the order in which a sweeping elevator serves the requested floors (first heading toward the first request, then reversing once) and the floors it travels.

Input: object {"start": floor, "requests": [floor, ...]}; floors between 0 and 20; 0 to 8 requests.
Invalid input raises ValueError.
"""


def elevator(state):
    """{"order": floors served, "distance": floors travelled}; the car sweeps one way, then the other."""
    if not isinstance(state, dict) or set(state) != {"start", "requests"}:
        raise ValueError("expected an object with keys start and requests")
    start = _int(state["start"], 0, 20)
    requests = _int_list(state["requests"], 0, 20, 0, 8)
    pending = sorted(set(requests))
    if not pending:
        return {"order": [], "distance": 0}
    if requests[0] >= start:
        order = [f for f in pending if f >= start] + [f for f in reversed(pending) if f < start]
    else:
        order = [f for f in reversed(pending) if f <= start] + [f for f in pending if f > start]
    distance, at = 0, start
    for f in order:
        distance += abs(f - at)
        at = f
    return {"order": order, "distance": distance}


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
