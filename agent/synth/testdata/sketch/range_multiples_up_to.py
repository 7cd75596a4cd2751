def stepped_range(xs):
    k, n = xs[0], xs[1]
    return list(range(k, n + 1, k))


def solve(input_data):
    xs = input_data
    return stepped_range(xs)
