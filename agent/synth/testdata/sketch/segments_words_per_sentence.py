import re


def letter_runs(s):
    runs, run = [], ""
    for c in s:
        if c.isalpha():
            run += c
        elif run:
            runs.append(run)
            run = ""
    if run:
        runs.append(run)
    return runs


def segments(s):
    out = []
    for seg in re.split(r"[.!?]", s):
        runs = letter_runs(seg)
        if any(c.isalpha() for c in seg):
            out.append(len(runs))
    return out


def solve(input_data):
    s = input_data
    return segments(s)
