def solve(input_data):
    return sorted(input_data)
