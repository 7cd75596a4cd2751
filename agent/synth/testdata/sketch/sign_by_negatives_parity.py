def state_machine(xs):
    state, out = 0, []
    for x in xs:
        state = (state ^ x > 0) - (state ^ x < 0)
        out.append(x * (state | 1))
    return out


def solve(input_data):
    xs = input_data
    return state_machine(xs)
