def first_index(xs):
    for i in range(len(xs) + 1):
        pre = xs[:i]
        rest = xs[i:]
        if sum(rest) <= sum(pre):
            return i
    return -1


def solve(input_data):
    xs = input_data
    return first_index(xs)
