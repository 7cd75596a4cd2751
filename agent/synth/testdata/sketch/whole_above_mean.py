def positionwise(xs):
    total = sum(xs)
    n = len(xs)
    out = []
    for x in xs:
        out.append(int(total < x * n))
    return out


def solve(input_data):
    xs = input_data
    return positionwise(xs)
