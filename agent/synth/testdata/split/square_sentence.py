def solve(input_data):
    n = input_data
    return str(n) + " squared is " + str(n ** 2)
