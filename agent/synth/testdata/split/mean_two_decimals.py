def solve(input_data):
    xs = input_data
    return "Mean: " + format(sum(xs) / len(xs), ".2f")
