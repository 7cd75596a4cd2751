import re


def segments(s):
    count = 0
    for seg in re.split(r"[.!?]", s):
        if any(c.isalpha() for c in seg):
            count += 1
    return count


def solve(input_data):
    s = input_data
    return segments(s)
