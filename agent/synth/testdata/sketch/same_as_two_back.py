def positionwise(xs):
    out = []
    for i in range(len(xs)):
        x = xs[i]
        back = xs[i - 2] if i >= 2 else 0
        out.append(0 if i < 2 else int(x == back))
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
