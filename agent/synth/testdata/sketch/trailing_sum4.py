def positionwise(xs):
    out = []
    for i in range(len(xs)):
        window = xs[max(0, i - 3):i + 1]
        out.append(sum(window))
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
