"""The hidden program of the quickstart: the running maximum of a list."""


def running_max(xs):
    if not isinstance(xs, list) or len(xs) > 12:
        raise ValueError("want a list of at most 12 integers")
    out = []
    best = None
    for x in xs:
        if not isinstance(x, int) or isinstance(x, bool) or not -50 <= x <= 50:
            raise ValueError("every element must be an integer in [-50, 50]")
        best = x if best is None else max(best, x)
        out.append(best)
    return out
