def queue(pairs):
    free, out = 0, []
    for arrival, duration in pairs:
        start = max(arrival, free)
        free = start + duration
        out.append(start - arrival)
    return out


def solve(input_data):
    pairs = input_data
    return queue(pairs)
