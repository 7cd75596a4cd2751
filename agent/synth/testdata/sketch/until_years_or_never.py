def steps_while(xs):
    amount, goal, rate = xs[0], xs[1], xs[2]
    x = amount
    steps = 0
    while x < float(goal):
        if steps == 10000:
            raise ArithmeticError("the loop does not end")
        y = x + x * (rate / 100)
        if y <= x:
            return -1
        x = y
        steps += 1
    return steps


def solve(input_data):
    xs = input_data
    return steps_while(xs)
