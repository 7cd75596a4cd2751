def guarded(xs):
    v = max(xs)
    k = xs.count(v)
    return v if v % 2 == 0 else None


def solve(input_data):
    xs = input_data
    try:
        return guarded(xs)
    except (ArithmeticError, LookupError, ValueError):
        return None
