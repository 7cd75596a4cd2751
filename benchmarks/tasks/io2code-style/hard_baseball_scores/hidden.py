"""Hidden program for hard_baseball_scores: the total of the scores kept, where a number records that score, "+" records the sum of the last two kept scores, "D" records double the last kept score and "C" removes the last kept score.

Input: list of score-keeper records: a number as a string such as "5" or "-2", or one of "+", "D" and "C"; 0 to 12 records; numbers between -30 and 30; "+" always comes after at least two kept scores, "D" and "C" after at least one.
Invalid input raises ValueError.
"""


def baseball_total(records):
    """The total of the kept scores after applying every record."""
    if not isinstance(records, list) or len(records) > 12:
        raise ValueError("expected a list of at most 12 records")
    kept = []
    for r in records:
        if r == "+":
            if len(kept) < 2:
                raise ValueError("'+' needs two kept scores")
            kept.append(kept[-1] + kept[-2])
        elif r == "D":
            if not kept:
                raise ValueError("'D' needs a kept score")
            kept.append(2 * kept[-1])
        elif r == "C":
            if not kept:
                raise ValueError("'C' needs a kept score")
            kept.pop()
        elif isinstance(r, str) and r.lstrip("-").isdigit() and r == str(int(r)) and -30 <= int(r) <= 30:
            kept.append(int(r))
        else:
            raise ValueError(f"unknown record {r!r}")
    return sum(kept)
