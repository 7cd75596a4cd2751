def solve(input_data):
    n = input_data
    return format(n // 60, "02d") + ":" + format(n % 60, "02d")
