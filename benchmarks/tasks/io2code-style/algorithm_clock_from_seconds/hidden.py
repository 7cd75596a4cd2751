"""Hidden program for algorithm_clock_from_seconds: the time of day as "HH:MM:SS", each part with two digits.

Input: a number of seconds since midnight; one integer between 0 and 86399.
Invalid input raises ValueError.
"""

def clock(seconds):
    """The time of day seconds after midnight, as HH:MM:SS."""
    seconds = _int(seconds, 0, 86399)
    hours = seconds // 3600
    minutes = seconds % 3600 // 60
    secs = seconds % 60
    return f"{hours:02d}:{minutes:02d}:{secs:02d}"


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
