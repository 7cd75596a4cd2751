def solve(input_data):
    s = input_data
    return {"shout": s.upper() + "!", "size": len(s)}
