def switch_machine(xs):
    state, out = 0, []
    for x in xs:
        if x < 18:
            state = 1
        elif x >= 23:
            state = 0
        out.append(state)
    return out


def solve(input_data):
    xs = input_data
    return switch_machine(xs)
