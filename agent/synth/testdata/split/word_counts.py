import itertools
import re


def solve(input_data):
    s = input_data
    return dict(zip(sorted(list(dict.fromkeys(re.findall("[A-Za-z]+", s.lower())))), [len(list(g)) for _, g in itertools.groupby(sorted(re.findall("[A-Za-z]+", s.upper())))]))
