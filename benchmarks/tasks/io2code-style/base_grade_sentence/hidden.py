"""Hidden program for base_grade_sentence: "The grade is G." where G is A for a score of 90 or more, B for 80 to 89, C for 70 to 79, D for 60 to 69 and F below 60.

Input: an exam score; one integer between 0 and 100.
Invalid input raises ValueError.
"""

def grade_sentence(score):
    """'The grade is G.' with the letter grade of the score."""
    score = _int(score, 0, 100)
    if score >= 90:
        grade = "A"
    elif score >= 80:
        grade = "B"
    elif score >= 70:
        grade = "C"
    elif score >= 60:
        grade = "D"
    else:
        grade = "F"
    return "The grade is " + grade + "."


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
