def state_machine(xs):
    state, out = 0, []
    for x in xs:
        state = state ^ 0 ** x
        out.append(x - state * x)
    return out


def solve(input_data):
    xs = input_data
    return state_machine(xs)
