def accumulate_loop(xs):
    temp, room, k, minutes = int(xs[0]), int(xs[1]), xs[2], int(xs[3])
    x = temp
    for _ in range(minutes):
        x = x + k * (float(room) - x)
    return x


def solve(input_data):
    xs = input_data
    return accumulate_loop(xs)
