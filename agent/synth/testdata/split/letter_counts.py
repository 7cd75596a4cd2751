import itertools


def solve(input_data):
    s = input_data
    return dict(zip(sorted(list(dict.fromkeys(list(s)))), [len(list(g)) for _, g in itertools.groupby("".join(sorted(s)))]))
