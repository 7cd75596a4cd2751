def positionwise(xs):
    out = []
    for i in range(len(xs)):
        x = xs[i]
        prev = out[-1] == 1 if out else False
        out.append(int(x < 9 if prev else x <= 3))
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
