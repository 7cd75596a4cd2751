"""Hidden program for hard_exam_summary: [how many passed (50 or more), how many failed, the average rounded to one decimal, the best score].

Input: list of exam scores; 1 to 12 integers between 0 and 100.
Invalid input raises ValueError.
"""

def exam_summary(scores):
    """Passes, fails, the average to one decimal and the best score."""
    scores = _int_list(scores, 0, 100, 1, 12)
    passed = 0
    for s in scores:
        if s >= 50:
            passed += 1
    average = round(sum(scores) / len(scores), 1)
    return [passed, len(scores) - passed, average, max(scores)]


def _int_list(x, lo, hi, min_len, max_len):
    """Return x when it is a list of min_len..max_len integers in [lo, hi]."""
    if not isinstance(x, list) or not min_len <= len(x) <= max_len:
        raise ValueError(f"expected a list of {min_len} to {max_len} integers")
    for v in x:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise ValueError(f"every element must be an integer in [{lo}, {hi}], got {v!r}")
    return x
