def accumulate_loop(xs):
    size, rate, limit, years = int(xs[0]), xs[1], int(xs[2]), int(xs[3])
    x = size
    for _ in range(years):
        x = max(x + rate * x * (1.0 - x / float(limit)), 0.0)
    return x


def solve(input_data):
    xs = input_data
    return accumulate_loop(xs)
