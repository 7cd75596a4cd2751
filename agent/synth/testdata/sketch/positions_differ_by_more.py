def indices_where(a, b, limit):
    if not (len(b) == len(a)):
        raise ValueError("the lists differ in length")
    return [i for i in range(len(a)) if limit < abs(a[i] - b[i])]


def solve(input_data):
    a, b, limit = input_data
    return indices_where(a, b, limit)
