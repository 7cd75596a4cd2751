def shifts(xs, ys):
    n = len(xs)
    amounts = range(n)
    values = []
    for k in amounts:
        r = xs[k:] + xs[:k]
        values.append(r == ys)
    return values.index(True) if True in values else -1


def solve(input_data):
    xs, ys = input_data
    return shifts(xs, ys)
