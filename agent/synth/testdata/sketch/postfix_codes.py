def stack_machine(xs):
    stack = []
    for x in xs:
        if x >= 10:
            if len(stack) < 2:
                raise ValueError("stack underflow")
            b = stack.pop()
            a = stack.pop()
            if x == 10:
                stack.append(a + b)
            elif x == 11:
                stack.append(a - b)
            elif x == 12:
                stack.append(a * b)
            else:
                raise ValueError(f"unknown operator {x}")
        else:
            stack.append(x)
    return stack[-1]


def solve(input_data):
    xs = input_data
    return stack_machine(xs)
