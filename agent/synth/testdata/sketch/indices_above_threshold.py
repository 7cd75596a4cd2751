def indices_where(xs, t):
    return [i for i in range(len(xs)) if t < xs[i]]


def solve(input_data):
    xs, t = input_data
    return indices_where(xs, t)
