def solve(input_data):
    xs = input_data
    return {"high": max(xs), "low": min(xs)}
