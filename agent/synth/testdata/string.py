def solve(input_data):
    s = input_data
    return " ".join(s.split()[::-1])
