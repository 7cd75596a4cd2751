def solve(input_data):
    a, b = input_data
    return a + (a - b)
