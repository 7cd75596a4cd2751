def positionwise(xs, ys):
    out = []
    for i in range(len(xs)):
        win_x = xs[:i + 1]
        win_y = ys[:i + 1]
        out.append(sum(win_x) - sum(win_y))
    return out


def solve(input_data):
    xs, ys = input_data
    return positionwise(xs, ys)
