def solve(input_data):
    result = []
    best = None
    for x in input_data:
        best = x if best is None else max(best, x)
        result.append(best)
    return result
