def positionwise(xs):
    total = sum(xs)
    n = len(xs)
    out = []
    for x in xs:
        dev = x * n - total
        out.append(int(dev > 0))
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
