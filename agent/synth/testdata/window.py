def solve(input_data):
    xs = input_data
    return [y - x for x, y in zip(xs, xs[1:])]
