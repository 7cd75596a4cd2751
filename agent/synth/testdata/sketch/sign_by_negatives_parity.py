def state_machine(xs):
    state, out = 0, []
    for x in xs:
        state = state ^ x // 7
        out.append((state ^ x) - state)
    return out


def solve(input_data):
    xs = input_data
    return state_machine(xs)
