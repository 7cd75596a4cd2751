def positionwise(xs):
    out = []
    for i in range(len(xs)):
        window = xs[max(0, i - 1):i + 1]
        prev = out[-1] == 1 if out else False
        out.append(int(int(not prev) < sum(window)))
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
