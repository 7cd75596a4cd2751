def solve(input_data):
    n = input_data
    return n // 2 if n % 2 == 0 else n * 3 + n % 2
