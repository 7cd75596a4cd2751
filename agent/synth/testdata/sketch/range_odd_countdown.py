def filtered_range(n):
    return [i for i in range(n, 0, -1) if i % 2 == 1]


def solve(input_data):
    n = input_data
    return filtered_range(n)
