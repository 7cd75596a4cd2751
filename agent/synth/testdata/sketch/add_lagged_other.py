def positionwise(xs, ys):
    out = []
    for i in range(len(xs)):
        x = xs[i]
        y_back = ys[i - 1] if i >= 1 else 0
        out.append(x + y_back)
    return out


def solve(input_data):
    xs, ys = input_data
    return positionwise(xs, ys)
