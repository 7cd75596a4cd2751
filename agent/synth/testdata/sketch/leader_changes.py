def positionwise(xs, ys):
    out = []
    for i in range(len(xs)):
        x = xs[i]
        y = ys[i]
        x_back = xs[i - 1] if i >= 1 else 0
        y_back = ys[i - 1] if i >= 1 else 0
        d = x - y
        d_back = x_back - y_back
        out.append(0 if i < 1 else int((d > 0) - (d < 0) != (d_back > 0) - (d_back < 0)))
    return out


def solve(input_data):
    xs, ys = input_data
    return positionwise(xs, ys)
