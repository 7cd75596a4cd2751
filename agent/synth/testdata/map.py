def solve(input_data):
    xs = input_data
    return [1 + x ** 2 for x in xs]
