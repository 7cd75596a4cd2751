def interpret(words):
    stack = []
    for tok in words:
        word = tok
        if word == "T":
            if len(stack) < 1:
                raise ValueError(f"{word} lacks its operands")
            a = stack[-1]
            stack.append(2 * a)
        elif word == "S":
            if len(stack) < 2:
                raise ValueError(f"{word} lacks its operands")
            a, b = stack[-2], stack[-1]
            stack.append(a + b)
        elif word == "X":
            if len(stack) < 1:
                raise ValueError(f"{word} lacks its operands")
            stack.pop()
        else:
            stack.append(int(word))
    return sum(stack)


def solve(input_data):
    words = input_data
    return interpret(words)
