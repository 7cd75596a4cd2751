def alternates(xs):
    """Every step changes direction and none is flat."""
    steps = [y - x for x, y in zip(xs, xs[1:])]
    return all(steps) and all(a * b < 0 for a, b in zip(steps, steps[1:]))


def positionwise(xs):
    out = []
    for i in range(len(xs)):
        x = xs[i]
        window = xs[max(0, i - 1):i + 1]
        prev = out[-1] == 1 if out else False
        out.append(int(prev if alternates(window) else x % 2 == 1))
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
