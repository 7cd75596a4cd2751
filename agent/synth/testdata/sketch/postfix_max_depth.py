def stack_machine(xs):
    stack = []
    deepest = 0
    for x in xs:
        if x >= 10:
            if len(stack) < 2:
                raise ValueError("stack underflow")
            # an operator combines its two operands into one entry
            stack[-2:] = [(stack[-2], x, stack[-1])]
        else:
            stack.append(x)
        deepest = max(deepest, len(stack))
    return deepest


def solve(input_data):
    xs = input_data
    return stack_machine(xs)
