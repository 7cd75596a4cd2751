def solve(input_data):
    pairs = input_data
    return [max(x, y) for x, y in pairs]
