def stack_machine(xs):
    stack = []
    for x in xs:
        if x >= 10:
            if len(stack) < 2:
                return False
            # an operator combines its two operands into one entry
            stack[-2:] = [(stack[-2], x, stack[-1])]
        else:
            stack.append(x)
    return len(stack) == 1


def solve(input_data):
    xs = input_data
    return stack_machine(xs)
