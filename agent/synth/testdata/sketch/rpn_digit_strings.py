def interpret(words):
    stack = []
    for tok in words:
        word = tok
        if word == "-":
            if len(stack) < 2:
                raise ValueError(f"{word} lacks its operands")
            b = stack.pop()
            a = stack.pop()
            stack.append(a - b)
        elif word == "*":
            if len(stack) < 2:
                raise ValueError(f"{word} lacks its operands")
            b = stack.pop()
            a = stack.pop()
            stack.append(a * b)
        elif word == "+":
            if len(stack) < 2:
                raise ValueError(f"{word} lacks its operands")
            b = stack.pop()
            a = stack.pop()
            stack.append(a + b)
        else:
            stack.append(int(word))
    return stack[-1]


def solve(input_data):
    words = input_data
    return interpret(words)
