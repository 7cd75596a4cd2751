def filtered_range(xs):
    a, b = xs[0], xs[1]
    return [i for i in range(a, b + 1) if i % 7 == 0 and not i % 5 == 0]


def solve(input_data):
    xs = input_data
    return filtered_range(xs)
