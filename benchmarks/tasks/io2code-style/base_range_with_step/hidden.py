"""Hidden program for base_range_with_step: the numbers start, start + step, start + 2 * step, ... for as long as they have not reached or passed stop.

Input: [start, stop, step]: three integers; start and stop between -30 and 30; step between -6 and 6, never 0.
Invalid input raises ValueError.
"""

def stepped_range(query):
    """Count from start towards stop in steps of step, stop itself excluded."""
    start, stop, step = _args(query, 3, "[start, stop, step]")
    start = _int(start, -30, 30)
    stop = _int(stop, -30, 30)
    step = _int(step, -6, 6)
    if step == 0:
        raise ValueError("the step must not be 0")
    out = []
    value = start
    while (step > 0 and value < stop) or (step < 0 and value > stop):
        out.append(value)
        value += step
    return out


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x


def _args(x, n, what):
    """Return x when it is a list of n arguments."""
    if not isinstance(x, list) or len(x) != n:
        raise ValueError(f"expected {what}")
    return x
