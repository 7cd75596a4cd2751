def filtered_range(xs):
    a, b = xs[0], xs[1]
    return [i for i in range(min(a, b), max(a, b) + 1) if i % 7 == 0]


def solve(input_data):
    xs = input_data
    return len(filtered_range(xs))
