def solve(input_data):
    xs = input_data
    return [len(xs), round(sum(xs) / 2, 6)]
