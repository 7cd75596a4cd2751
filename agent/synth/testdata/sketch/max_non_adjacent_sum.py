def list_recurrence(xs):
    before, last = 0, 0
    for x in xs:
        before, last = last, max(last, before + x)
    return last


def solve(input_data):
    xs = input_data
    return list_recurrence(xs)
