"""Hidden program for hard_thermostat: heater state after each reading: it switches on below 18, off above 22, and otherwise keeps its state (starting off).

Input: list of integers; 0 to 14 integers, each between 10 and 30.
Invalid input raises ValueError.
"""


def thermostat(xs):
    """Heater state after each reading: it switches on below 18, off above 22, and otherwise keeps its state (starting off)."""
    xs = _int_list(xs, 10, 30, 0, 14)
    on, out = 0, []
    for t in xs:
        if t < 18:
            on = 1
        elif t > 22:
            on = 0
        out.append(on)
    return out


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
