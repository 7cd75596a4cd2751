def digit_value(xs, ys):
    a_ = sum(dig * 2 ** pos for pos, dig in enumerate(xs))
    b_ = sum(dig * 2 ** pos for pos, dig in enumerate(ys))
    t = a_ + b_
    width = max(len(xs), len(ys)) + 1
    if t < 0:
        raise ValueError("negative result")
    out = []
    while t > 0 or len(out) < width:
        out.append(t % 2)
        t //= 2
    return out


def solve(input_data):
    xs, ys = input_data
    return digit_value(xs, ys)
