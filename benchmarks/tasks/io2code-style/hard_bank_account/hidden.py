"""Hidden program for hard_bank_account: [final balance, refused withdrawals] for an account starting at 0 where a withdrawal larger than the balance is refused and costs a fee of 2 (never below 0).

Input: transactions: list of ["deposit", amount] or ["withdraw", amount]; 0 to 12 transactions; amounts between 1 and 100.
Invalid input raises ValueError.
"""


def bank_account(transactions):
    """[final balance, number of refused withdrawals]; a refused withdrawal costs a fee of up to 2."""
    if not isinstance(transactions, list) or len(transactions) > 12:
        raise ValueError("expected a list of at most 12 transactions")
    balance = refused = 0
    for t in transactions:
        if (not isinstance(t, list) or len(t) != 2 or t[0] not in ("deposit", "withdraw")
                or isinstance(t[1], bool) or not isinstance(t[1], int) or not 1 <= t[1] <= 100):
            raise ValueError(f"expected [deposit|withdraw, amount 1..100], got {t!r}")
        kind, amount = t
        if kind == "deposit":
            balance += amount
        elif amount <= balance:
            balance -= amount
        else:
            refused += 1
            balance -= min(2, balance)
    return [balance, refused]
