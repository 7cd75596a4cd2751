def stack_machine(xs):
    stack = []
    out = []
    for x in xs:
        if x == 0:
            if stack:
                out.append(stack.pop())
        else:
            stack.append(x)
    return out


def solve(input_data):
    xs = input_data
    return stack_machine(xs)
