def solve(input_data):
    xs = input_data
    return {"count": len(xs), "evens": [x for x in xs if x % 2 == 0]}
