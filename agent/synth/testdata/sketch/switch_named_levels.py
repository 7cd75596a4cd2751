def switch_machine(xs):
    state, out = "normal", []
    for x in xs:
        if x < -9:
            state = "low"
        elif -2 <= x < 3:
            state = "normal"
        elif x >= 10:
            state = "high"
        out.append(state)
    return out


def solve(input_data):
    xs = input_data
    return switch_machine(xs)
