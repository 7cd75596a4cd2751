def positionwise(xs):
    out = []
    for i in range(len(xs)):
        back = xs[i - 3] if i >= 3 else 0
        out.append(back)
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
