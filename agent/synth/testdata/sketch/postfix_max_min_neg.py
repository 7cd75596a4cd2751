def interpret(toks):
    stack = []
    for tok in toks:
        word = tok
        if word == "min":
            if len(stack) < 2:
                raise ValueError(f"{word} lacks its operands")
            b = stack.pop()
            a = stack.pop()
            stack.append(min(a, b))
        elif word == "neg":
            if len(stack) < 1:
                raise ValueError(f"{word} lacks its operands")
            a = stack.pop()
            stack.append(-a)
        elif word == "max":
            if len(stack) < 2:
                raise ValueError(f"{word} lacks its operands")
            b = stack.pop()
            a = stack.pop()
            stack.append(max(a, b))
        else:
            stack.append(int(word))
    return stack[-1]


def token(t):
    """One token as text: a record [word, arguments...] as its parts joined by spaces."""
    return " ".join(str(p) for p in t) if isinstance(t, list) else str(t)


def solve(input_data):
    toks = [token(t) for t in input_data]
    return interpret(toks)
