def solve(input_data):
    xs = input_data
    return "Count: " + str(len(xs)) if len(xs) <= 0 else "Count: " + str(len(xs)) + "\nMin: " + str(min(xs)) + "\nMax: " + str(max(xs))
