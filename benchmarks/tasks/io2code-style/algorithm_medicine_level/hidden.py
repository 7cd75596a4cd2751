"""Hidden program for algorithm_medicine_level: the mg of medicine in the body after the given hours, rounded to 2 decimals, when at the start of hour h a dose is taken whenever h is a multiple of every (h = 0, 1, ...) and at the end of each hour only keep percent is left.

Input: [dose, keep, every, hours]: a dose in mg, the percentage of the medicine the body keeps each hour, the hours between doses and the number of hours; dose from 1 to 500; keep from 0 to 100; every from 1 to 24; hours from 0 to 72; all integers.
Invalid input raises ValueError.
"""

def medicine_level(query):
    """Simulate regular doses that the body clears hour by hour."""
    dose, keep, every, hours = _args(query, 4, "[dose, keep, every, hours]")
    dose = _int(dose, 1, 500)
    keep = _int(keep, 0, 100)
    every = _int(every, 1, 24)
    hours = _int(hours, 0, 72)
    amount = 0
    for h in range(hours):
        if h % every == 0:
            amount += dose
        amount = amount * keep / 100
    return round(amount, 2)


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
