def stepped_range(xs):
    start, stop, step = xs[0], xs[1], xs[2]
    return list(range(start, stop, step))


def solve(input_data):
    xs = input_data
    return stepped_range(xs)
