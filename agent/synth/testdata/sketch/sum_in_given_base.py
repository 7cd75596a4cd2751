def digit_value(base, p, q):
    a_ = sum(dig * base ** pos for pos, dig in enumerate(p))
    b_ = sum(dig * base ** pos for pos, dig in enumerate(q))
    t = a_ + b_
    width = max(len(p), len(q))
    if t < 0:
        raise ValueError("negative result")
    out = []
    while t > 0 or len(out) < width:
        out.append(t % base)
        t //= base
    return out


def solve(input_data):
    base, p, q = input_data
    return digit_value(base, p, q)
