def first_index(xs):
    for i in range(len(xs)):
        x = xs[i]
        pre = xs[:i]
        if x == sum(pre):
            return i
    return -1


def solve(input_data):
    xs = input_data
    return first_index(xs)
