"""Hidden program for hard_bmi_report: "BMI B: CATEGORY" where B is weight / (height in metres) squared with one decimal and the category is underweight below 18.5, normal below 25, overweight below 30 and obese otherwise (judged on the unrounded value).

Input: [weight, height]: a weight in kilograms and a height in centimetres; weight from 30 to 200 and height from 100 to 220, both integers.
Invalid input raises ValueError.
"""

def bmi_report(query):
    """The body mass index with one decimal and its category."""
    if not isinstance(query, list) or len(query) != 2:
        raise ValueError("expected [weight, height]")
    weight = _int(query[0], 30, 200)
    height = _int(query[1], 100, 220)
    metres = height / 100
    bmi = weight / (metres * metres)
    if bmi < 18.5:
        category = "underweight"
    elif bmi < 25:
        category = "normal"
    elif bmi < 30:
        category = "overweight"
    else:
        category = "obese"
    return f"BMI {bmi:.1f}: {category}"


def _int(x, lo, hi):
    """Return x when it is an integer in [lo, hi]."""
    if isinstance(x, bool) or not isinstance(x, int) or not lo <= x <= hi:
        raise ValueError(f"expected an integer in [{lo}, {hi}], got {x!r}")
    return x
