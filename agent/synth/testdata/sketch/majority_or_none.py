def guarded(xs):
    v = max(sorted(xs), key=xs.count)
    k = xs.count(v)
    return v if len(xs) < k + k else None


def solve(input_data):
    xs = input_data
    try:
        return guarded(xs)
    except (ArithmeticError, LookupError, ValueError):
        return None
