def filtered_range(n):
    return [i for i in range(n) if i % 3 == 0 or i % 5 == 0]


def solve(input_data):
    n = input_data
    return sum(filtered_range(n))
