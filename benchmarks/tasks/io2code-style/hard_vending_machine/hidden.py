"""Hidden program for hard_vending_machine: a vending machine (A costs 35, B 50, C 75) accepting coins of 5, 10 and 25, returning any other coin at once; output {dispensed, returned, credit}.

Input: events: list of ["coin", value], ["select", "A"|"B"|"C"] or ["refund"]; 0 to 12 events; coin values between 1 and 25.
Invalid input raises ValueError.
"""


PRICES = {"A": 35, "B": 50, "C": 75}
ACCEPTED = (5, 10, 25)


def vending_machine(events):
    """{"dispensed": items in order, "returned": money handed back, "credit": money left inside}."""
    if not isinstance(events, list) or len(events) > 12:
        raise ValueError("expected a list of at most 12 events")
    credit, returned, dispensed = 0, 0, []
    for e in events:
        if not isinstance(e, list) or not e:
            raise ValueError(f"unknown event {e!r}")
        if e[0] == "coin" and len(e) == 2 and not isinstance(e[1], bool) and isinstance(e[1], int) and 1 <= e[1] <= 25:
            if e[1] in ACCEPTED:
                credit += e[1]
            else:
                returned += e[1]
        elif e[0] == "select" and len(e) == 2 and isinstance(e[1], str) and e[1] in PRICES:
            if credit >= PRICES[e[1]]:
                credit -= PRICES[e[1]]
                dispensed.append(e[1])
        elif e == ["refund"]:
            returned += credit
            credit = 0
        else:
            raise ValueError(f"unknown event {e!r}")
    return {"dispensed": dispensed, "returned": returned, "credit": credit}
