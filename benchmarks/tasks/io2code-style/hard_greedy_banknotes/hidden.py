"""Hidden program for hard_greedy_banknotes: how many of each note a cashier hands out who always takes as many of the largest note as fit, then the next one, followed by the amount left that no note can pay.

Input: [amount, notes]: an amount and the values of the notes available, largest first; amount from 0 to 5000; 1 to 6 note values between 1 and 500, strictly decreasing.
Invalid input raises ValueError.
"""

def banknotes(query):
    """Greedy change: a count per note value, then the rest."""
    amount, notes = _args(query, 2, "[amount, notes]")
    amount = _int(amount, 0, 5000)
    if not isinstance(notes, list) or not 1 <= len(notes) <= 6:
        raise ValueError("expected 1 to 6 note values")
    for i, note in enumerate(notes):
        _int(note, 1, 500)
        if i > 0 and note >= notes[i - 1]:
            raise ValueError("the note values must be strictly decreasing")
    counts = []
    for note in notes:
        counts.append(amount // note)
        amount = amount % note
    counts.append(amount)
    return counts


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
