def steps_while(xs):
    debt, rate, payment = int(xs[0]), xs[1], int(xs[2])
    x = debt
    steps = 0
    while 0.0 < x:
        if steps == 10000:
            raise ArithmeticError("the loop does not end")
        y = x + x * rate / 100.0 - float(payment)
        if y >= x:
            return -1
        x = y
        steps += 1
    return steps


def solve(input_data):
    xs = input_data
    return steps_while(xs)
