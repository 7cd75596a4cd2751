"""Hidden program for algorithm_years_to_target: how many years of growth by rate percent a year (amount = amount * (1 + rate / 100)) it takes until the amount reaches the target; 0 when it already does.

Input: [amount, target, rate]: a starting amount, the amount wanted and a yearly interest rate in percent; amount from 1 to 1000, target from 1 to 100000, rate from 1 to 50, all integers.
Invalid input raises ValueError.
"""

def years_to_target(query):
    """Years of compound growth until the amount reaches the target."""
    amount, target, rate = _args(query, 3, "[amount, target, rate]")
    amount = _int(amount, 1, 1000)
    target = _int(target, 1, 100000)
    rate = _int(rate, 1, 50)
    years = 0
    while amount < target:
        amount = amount * (1 + rate / 100)
        years += 1
    return years


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
