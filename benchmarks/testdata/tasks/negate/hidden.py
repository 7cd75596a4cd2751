def negate(x):
    if not isinstance(x, int) or not -1000 <= x <= 1000:
        raise ValueError("want an integer in [-1000, 1000]")
    return -x
