def accumulate_loop(n):
    x = 0
    for i in range(1, n + 1):
        x = x + 1.0 / i ** 2
    return x


def solve(input_data):
    n = input_data
    return accumulate_loop(n)
