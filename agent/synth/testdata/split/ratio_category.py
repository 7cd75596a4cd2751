def solve(input_data):
    a, b = input_data
    return "Ratio " + format(a / b, ".2f") + ": " + ("low" if a / b < 0.5 else "even" if a / b < 2 else "high")
