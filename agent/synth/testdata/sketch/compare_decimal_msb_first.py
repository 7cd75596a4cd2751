def digit_value(xs, ys):
    a_ = sum(dig * 10 ** pos for pos, dig in enumerate(reversed(xs)))
    b_ = sum(dig * 10 ** pos for pos, dig in enumerate(reversed(ys)))
    return (a_ - b_ > 0) - (a_ - b_ < 0)


def solve(input_data):
    xs, ys = input_data
    return digit_value(xs, ys)
