def shifts(words):
    if len(words) != 2:
        raise ValueError("expected two strings")
    n = len(words[0])
    amounts = range(n)
    values = []
    for k in amounts:
        r = words[0][k:] + words[0][:k]
        values.append(r == words[1])
    return any(values)


def solve(input_data):
    words = input_data
    return shifts(words)
