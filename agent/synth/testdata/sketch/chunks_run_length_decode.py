def chunkwise(s):
    if len(s) % 2:
        raise ValueError("expected units of 2 characters")
    return "".join([c[0] * int(c[1]) for c in (s[i:i + 2] for i in range(0, len(s), 2))])


def solve(input_data):
    s = input_data
    return chunkwise(s)
