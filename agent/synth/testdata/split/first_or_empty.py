def solve(input_data):
    xs = input_data
    return "nothing" if len(xs) <= 0 else "first " + str(xs[0]) + " of " + str(len(xs))
