def positionwise(xs, ys):
    out = []
    for i in range(len(xs)):
        x = xs[i]
        y = ys[i]
        prev = out[-1] if out else 0
        out.append(prev if y % 2 == 0 else x)
    return out


def solve(input_data):
    xs, ys = input_data
    return positionwise(xs, ys)
