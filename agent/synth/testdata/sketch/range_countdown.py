def stepped_range(n):
    return list(range(n, 0, -1))


def solve(input_data):
    n = input_data
    return stepped_range(n)
