"""Hidden program for algorithm_loan_months: how many months it takes to pay the loan off when every month the interest (balance * rate / 100) is added and then the payment subtracted, until the balance is 0 or less; -1 when the payment does not exceed the first month's interest.

Input: [loan, rate, payment]: a loan in euros, a monthly interest rate in percent and a monthly payment in euros; loan an integer from 0 to 5000; rate from 0 to 5 with at most one decimal; payment an integer from 1 to 1000.
Invalid input raises ValueError.
"""

def loan_months(query):
    """Count the monthly payments until the loan is paid off."""
    loan, rate, payment = _args(query, 3, "[loan, rate, payment]")
    balance = _num(_int(loan, 0, 5000), 0, 5000)
    rate = _num(rate, 0, 5)
    payment = _int(payment, 1, 1000)
    if balance > 0 and payment <= balance * rate / 100:
        return -1
    months = 0
    while balance > 0:
        balance = balance + balance * rate / 100
        balance = balance - payment
        months += 1
    return months


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
