def running_state(amount, notes):
    state = amount
    out = []
    for item in notes:
        out.append(state // item)
        state = state % item
    out.append(state)
    return out


def solve(input_data):
    amount, notes = input_data
    return running_state(amount, notes)
