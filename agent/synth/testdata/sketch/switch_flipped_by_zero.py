def switch_machine(xs):
    state, out = 0, []
    for x in xs:
        if state == 0:
            if x < 1:
                state = 1
        elif state == 1:
            if x < 1:
                state = 0
        out.append(state)
    return out


def solve(input_data):
    xs = input_data
    return switch_machine(xs)
