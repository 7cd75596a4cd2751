def solve(input_data):
    xs = input_data
    return [[x for x in xs if x > 0], [x for x in xs if x < 1]]
