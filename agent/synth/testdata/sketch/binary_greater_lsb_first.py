def digit_value(xs, ys):
    a_ = sum(dig * 2 ** pos for pos, dig in enumerate(xs))
    b_ = sum(dig * 2 ** pos for pos, dig in enumerate(ys))
    return b_ < a_


def solve(input_data):
    xs, ys = input_data
    return digit_value(xs, ys)
