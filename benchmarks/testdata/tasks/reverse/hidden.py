def reverse(xs):
    if not isinstance(xs, list) or len(xs) > 8 or any(not isinstance(x, int) or not -20 <= x <= 20 for x in xs):
        raise ValueError("want a list of at most 8 integers in [-20, 20]")
    return xs[::-1]
