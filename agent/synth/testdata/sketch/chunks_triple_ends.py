def chunkwise(s):
    if len(s) % 3:
        raise ValueError("expected units of 3 characters")
    return [c[0] + c[2] for c in (s[i:i + 3] for i in range(0, len(s), 3))]


def solve(input_data):
    s = input_data
    return chunkwise(s)
