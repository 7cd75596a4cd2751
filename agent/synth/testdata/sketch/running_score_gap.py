def positionwise(xs, ys):
    zs = [x - y for x, y in zip(xs, ys)]
    out = []
    for i in range(len(zs)):
        window = zs[:i + 1]
        out.append(sum(window))
    return out


def solve(input_data):
    xs, ys = input_data
    return positionwise(xs, ys)
