"""Hidden program for hard_inventory: the stock left, as an object item -> count of the items still held; removing more than held removes all.

Input: operations: list of ["add" or "remove", item, quantity]; 0 to 12 operations; items apple, pear, fig or kiwi; quantities between 1 and 9.
Invalid input raises ValueError.
"""


ITEMS = ("apple", "pear", "fig", "kiwi")


def inventory(ops):
    """The final stock, only items with a positive count."""
    if not isinstance(ops, list) or len(ops) > 12:
        raise ValueError("expected a list of at most 12 operations")
    stock = {}
    for op in ops:
        if (not isinstance(op, list) or len(op) != 3 or op[0] not in ("add", "remove") or op[1] not in ITEMS
                or isinstance(op[2], bool) or not isinstance(op[2], int) or not 1 <= op[2] <= 9):
            raise ValueError(f"expected [add|remove, item, quantity 1..9], got {op!r}")
        verb, item, qty = op
        held = stock.get(item, 0)
        stock[item] = held + qty if verb == "add" else max(0, held - qty)
    return {item: n for item, n in sorted(stock.items()) if n > 0}
