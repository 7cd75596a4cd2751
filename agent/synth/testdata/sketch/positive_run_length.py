def positionwise(xs):
    out = []
    for i in range(len(xs)):
        x = xs[i]
        prev = out[-1] if out else 0
        out.append(prev + 1 if x > 0 else 0)
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
