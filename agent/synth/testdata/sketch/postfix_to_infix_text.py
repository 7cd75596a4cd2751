def interpret(words):
    stack = []
    for tok in words:
        word = tok
        if word in ("/", "+", "-", "*"):
            if len(stack) < 2:
                raise ValueError(f"{word} lacks its operands")
            b = stack.pop()
            a = stack.pop()
            stack.append(f"({a}{word}{b})")
        elif len(word) == 1 and word.isalpha():
            stack.append(word)
        else:
            stack.append(int(word))
    return stack[-1]


def solve(input_data):
    words = input_data
    return interpret(words)
