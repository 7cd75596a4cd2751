def neighbour_indices(xs):
    out = []
    for i in range(1, len(xs) - 1):
        prev = xs[i - 1]
        x = xs[i]
        nxt = xs[i + 1]
        if x < min(prev, nxt):
            out.append(i)
    return out


def solve(input_data):
    xs = input_data
    return neighbour_indices(xs)
