def solve(input_data):
    xs = input_data
    return [x ** 2 + 1 for x in xs]
