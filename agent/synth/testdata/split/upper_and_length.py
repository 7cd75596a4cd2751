def solve(input_data):
    s = input_data
    return [s.upper(), len(s)]
