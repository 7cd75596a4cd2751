"""Hidden program for base_compound_balance: the balance after the given years when each year it grows by rate percent (balance = balance + balance * rate / 100), not rounded.

Input: [balance, rate, years]: a starting balance, a yearly interest rate in percent and a number of years; balance from 0 to 1000 with at most two decimals; rate from 0 to 10 with at most one decimal; years an integer from 0 to 30.
Invalid input raises ValueError.
"""

def compound(query):
    """Let a savings balance earn interest year after year."""
    balance, rate, years = _args(query, 3, "[balance, rate, years]")
    balance = _num(balance, 0, 1000)
    rate = _num(rate, 0, 10)
    years = _int(years, 0, 30)
    for _ in range(years):
        balance = balance + balance * rate / 100
    return balance


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x


def _num(x, lo, hi):
    """Return x as a float when it is a number in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not lo <= x <= hi:
        raise ValueError(f"expected a number in [{lo}, {hi}], got {x!r}")
    return float(x)


def _args(x, n, what):
    """Return x when it is a list of n arguments."""
    if not isinstance(x, list) or len(x) != n:
        raise ValueError(f"expected {what}")
    return x
