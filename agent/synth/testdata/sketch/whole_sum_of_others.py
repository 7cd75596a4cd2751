def positionwise(xs):
    total = sum(xs)
    out = []
    for x in xs:
        out.append(total - x)
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
