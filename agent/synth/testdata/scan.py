from itertools import accumulate


def solve(input_data):
    xs = input_data
    return list(accumulate(xs, max))
