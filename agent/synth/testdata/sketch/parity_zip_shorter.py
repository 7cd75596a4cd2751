def positionwise(xs, ys):
    out = []
    for i in range(min(len(xs), len(ys))):
        x = xs[i]
        y = ys[i]
        out.append(x * y if i % 2 == 0 else x - y)
    return out


def solve(input_data):
    xs, ys = input_data
    return positionwise(xs, ys)
