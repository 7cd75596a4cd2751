def accumulate_loop(xs):
    amount, rate, years = xs[0], xs[1], int(xs[2])
    x = amount
    for _ in range(years):
        x = x + x * (rate / 100)
    return x


def solve(input_data):
    xs = input_data
    return accumulate_loop(xs)
