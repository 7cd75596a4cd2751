def neighbour_indices(xs, step):
    out = []
    for i in range(1, len(xs)):
        prev = xs[i - 1]
        x = xs[i]
        if prev < x - step:
            out.append(i)
    return out


def solve(input_data):
    xs, step = input_data
    return neighbour_indices(xs, step)
