def shifts(xs, ys):
    n = len(xs)
    amounts = range(n) if n else [0]
    values = []
    for k in amounts:
        r = xs[k:] + xs[:k]
        values.append(sum(x == y for x, y in zip(r, ys)))
    return max(values)


def solve(input_data):
    xs, ys = input_data
    return shifts(xs, ys)
