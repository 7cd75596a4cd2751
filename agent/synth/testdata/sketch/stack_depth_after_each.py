def stack_machine(xs):
    stack = []
    out = []
    for x in xs:
        if x == 0:
            if stack:
                stack.pop()
        else:
            stack.append(x)
        out.append(len(stack))
    return out


def solve(input_data):
    xs = input_data
    return stack_machine(xs)
