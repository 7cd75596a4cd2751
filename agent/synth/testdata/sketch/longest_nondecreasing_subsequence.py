def pair_table(xs):
    best = []
    for i, x in enumerate(xs):
        best.append(1 + max([best[j] for j in range(i) if xs[j] <= x], default=0))
    return max(best, default=0)


def solve(input_data):
    xs = input_data
    return pair_table(xs)
