"""Hidden program for algorithm_receipt_line: a receipt line: "ITEM = E.CC" for one item, "Q x ITEM = E.CC" for more, where E.CC is the total price in euros with two digits of cents.

Input: [item, quantity, price]: the name of an item, how many were bought and the price of one in cents; item 1 to 12 lowercase letters; quantity from 1 to 99; price from 0 to 9999.
Invalid input raises ValueError.
"""

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def receipt_line(query):
    """One line of a receipt for quantity times an item."""
    item, quantity, price = _args(query, 3, "[item, quantity, price]")
    item = _string(item, 12, LETTERS)
    if not item:
        raise ValueError("the item needs a name")
    quantity = _int(quantity, 1, 99)
    price = _int(price, 0, 9999)
    total = quantity * price
    money = str(total // 100) + "." + str(total % 100).zfill(2)
    if quantity == 1:
        return item + " = " + money
    return str(quantity) + " x " + item + " = " + money


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


def _string(x, max_len, allowed=None):
    """Return x when it is a string of at most max_len characters from allowed."""
    if not isinstance(x, str) or len(x) > max_len:
        raise ValueError(f"expected a string of at most {max_len} characters")
    if allowed is not None:
        for c in x:
            if c not in allowed:
                raise ValueError(f"character {c!r} is not allowed")
    return x
